"""Analytics on revisions: the read-only queries of ``cypher/beliefs/analytics/``, run by name.

Each file is runnable as-is in Neo4j Browser, so its ``//`` header is also its contract here:

- the first line says what it does (the description listed by ``credence analytics list``);
- a ``// :param {agent_id: '<agent id>', limit: 10}`` line, pasted into Browser, sets every
  parameter; here it gives the defaults of the optional ones;
- ``//   $name :: TYPE [NOT NULL]  ...`` lines declare each parameter (``required`` right after
  the type marks one that has no default; ``one of 'a', 'b'`` lists the allowed values);
- ``//   column :: TYPE  ...`` lines declare the returned columns, in order.

Parameters arriving as text (query string, ``--param key=value``) are converted to the declared
type. Integer parameters of analytics are sizes, so negative values are refused.

Modules: ``models`` (what a header declares, what the API returns), ``param_map`` (the
``:param`` map literal), ``header`` (reading a file's contract), ``params`` (converting and
resolving parameters) and ``runner`` (listing and running the queries).
"""
