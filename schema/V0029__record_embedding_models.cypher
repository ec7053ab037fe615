// Every stored vector records the model that made it (`embedding_model`: a bundled model's name,
// app/embeddings/bundled.py, or a model folder's setting), and every query that compares vectors
// reads only those of the running model, so no search mixes two models' vectors. Vectors stored
// before this migration were made by all-MiniLM-L6-v2 (the only bundled model until then; a
// database embedded by a model folder of one's own is re-embedded by `credence embed reindex`
// after setting that folder again). When the running model is another one (e5-small-v2 by
// default from now on), the API says so at start and answers on fulltext + graph for the vectors
// of the old model until `credence embed reindex` has re-embedded them. Idempotent.
MATCH (n:Belief) WHERE n.embedding IS NOT NULL AND n.embedding_model IS NULL
CALL (n) {
  SET n.embedding_model = 'all-minilm-l6-v2'
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:Rule) WHERE n.embedding IS NOT NULL AND n.embedding_model IS NULL
CALL (n) {
  SET n.embedding_model = 'all-minilm-l6-v2'
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:Episode) WHERE n.embedding IS NOT NULL AND n.embedding_model IS NULL
CALL (n) {
  SET n.embedding_model = 'all-minilm-l6-v2'
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:CorpusPassage) WHERE n.embedding IS NOT NULL AND n.embedding_model IS NULL
CALL (n) {
  SET n.embedding_model = 'all-minilm-l6-v2'
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:Hypothesis) WHERE n.embedding IS NOT NULL AND n.embedding_model IS NULL
CALL (n) {
  SET n.embedding_model = 'all-minilm-l6-v2'
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:Tool) WHERE n.embedding IS NOT NULL AND n.embedding_model IS NULL
CALL (n) {
  SET n.embedding_model = 'all-minilm-l6-v2'
} IN TRANSACTIONS OF 10000 ROWS;
