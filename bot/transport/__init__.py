"""Discord plumbing: the discord.py client that owns start-up and shutdown (:mod:`.client`), the REST request
scheduler (:mod:`.requests`), gateway resumes and identify pacing (:mod:`.gateway`), the API endpoints
(:mod:`.endpoints`), DM clicks forwarded between shard processes (:mod:`.forwarding`) and the log of interactions
that could not be answered (:mod:`.interaction_log`)."""
