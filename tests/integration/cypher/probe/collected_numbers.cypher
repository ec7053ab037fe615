// The numbers 1..$n, largest first, as one record's list of rows (GraphClient.read_collected),
// each with its day as a date; no record at all when $n < 1.
// Params: $n (int).
// Returns one record, rows: a list of maps: n (int), day (date: 2024-01-n).
UNWIND range(1, $n) AS n
WITH n ORDER BY n DESC
WITH collect({n: n, day: date({year: 2024, month: 1, day: n})}) AS rows
  WHERE size(rows) > 0
RETURN rows
