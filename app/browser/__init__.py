"""Credence inside Neo4j Browser (docs/browser.md): the guide the API serves at
``/browser/guide``, written for one agent (the demo agent by default), and the style sheet
``cypher/browser/style.grass`` served at ``/browser/style.grass``.

Neo4j Browser fetches both from the API when it connects (``browser.post_connect_cmd`` in the
launcher's neo4j.conf and in docker-compose.yml) and runs the guide's queries itself, over Bolt,
with the Neo4j user's own rights: the API only names the agent.
"""
