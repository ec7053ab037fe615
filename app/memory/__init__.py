"""Memory: embeddings, episodes, people, frames, working memory, rules, self-model, retrieval."""
