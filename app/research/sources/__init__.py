"""Where an investigation searches: a protocol, and the sources Credence ships with it."""
