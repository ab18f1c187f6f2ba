"""Tavolo: a Discord bot for traditional trick-taking card games."""

__version__ = "0.1.0"
