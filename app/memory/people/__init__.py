"""People (docs/memory.md §2): who the agent deals with, how much their word weighs, how they
feel, and what they know and prefer (the user model lives on Person).

- ``models``: the API and service models (Person, PersonCreate, Mention, ...);
- ``formulas``: authority, relationship value, interaction frequency and affect (pure);
- ``names``: finding people's names in a text, and the look-up key of a name (pure);
- ``store``: reading and writing people (create, read, list, edit, interactions, affect);
- ``micro_birth``: a person born from a mention (a name in a message or an imported episode)
  and a person met in a turn;
- ``user_model``: the rules of trust, knowledge per domain, goals, patterns and answer depth
  (pure);
- ``learning``: what a turn and an answer to a proposal teach about the person;
- ``aliases``: editing a person's aliases (other names that mean them) by hand.
"""
