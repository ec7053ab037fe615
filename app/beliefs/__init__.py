"""The belief engine: store, outcome and evidence updates, cascade, tension, revision."""
