# The Credence API image (used by docker-compose.yml). Neo4j runs in its own container.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
WORKDIR /srv/credence

COPY pyproject.toml README.md ./
COPY app ./app
COPY cypher ./cypher
COPY schema ./schema
COPY seeds ./seeds
RUN pip install --no-cache-dir .
# Build the embedding model's ONNX copy now (into the image), not at every container start.
RUN credence embed status

EXPOSE 8000
# Migrations are applied by the API on start (CREDENCE_MIGRATE_ON_START=true).
CMD ["credence", "serve"]
