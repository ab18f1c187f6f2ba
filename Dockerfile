# Tavolo in a container: slim Python, non-root user, the SQLite database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TAVOLO_DATABASE=/app/data/tavolo.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . \
    && useradd --create-home --uid 10001 tavolo \
    && mkdir -p /app/data \
    && chown tavolo:tavolo /app/data

USER tavolo
VOLUME ["/app/data"]
# Settings come from the environment (docker run --env-file .env ...); see .env.example.
CMD ["tavolo"]
