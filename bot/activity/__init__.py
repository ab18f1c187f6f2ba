"""The Activity: Tavolo's tables inside Discord's own game frame (docs/activity-protocol.md).

``server`` serves the page, card faces, the OAuth2 endpoints and one WebSocket per page; ``hub`` keeps the sockets
and pushes each reader's view on every table update; ``views`` builds those views from the table screens only;
``sessions`` signs short-lived session tokens; ``frames`` checks every client frame; ``discord_api`` makes the
three Discord requests. No Discord library here: the cog only adds the **Open in Activity** button.
"""
