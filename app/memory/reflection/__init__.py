"""Reflection and consolidation (docs/memory.md §7): recent experience becomes rules.

One reflection:

1. **reads** the agent's most recent unconsolidated, non-trivial episodes that have an embedding
   (``max_episodes`` of them, optionally only those since ``since``). Trivial episodes (fewer than
   2 actions) are kept but never consolidated; episodes without a vector yet are skipped and
   counted (``credence embed backfill`` gives them one).
2. **clusters** them by cosine similarity of their stored embeddings: average-linkage
   agglomerative clustering that keeps merging the two most similar clusters while their mean
   pairwise similarity is at least ``similarity`` (:func:`cluster_by_similarity`). It does not
   depend on the order the episodes are read in, and ties break by age, so the same episodes
   always give the same clusters. Clusters smaller than ``min_cluster_size`` are left alone: their
   episodes stay unconsolidated for a later reflection.
3. **abstracts** one rule per cluster with the reasoner (``abstract_rule``), given the cluster's
   episodes (the most central ones when it is large) and the agent's strongest existing rules.
   Every reasoner call happens before anything is written, so a reasoner failure writes nothing.
4. **writes**, in one transaction under the agent's lock: each rule (source ``reflection``,
   embedded when embeddings are available) with ``DERIVED_FROM`` edges to its episodes; the
   episodes ``consolidated = true`` with ``consolidated_at``; the capabilities; the knowledge
   gaps. Under the lock it first re-checks that every clustered episode is still unconsolidated:
   a cluster that a concurrent reflection consolidated meanwhile is dropped (reported as
   ``raced``), so two reflections never make duplicate rules. A second reflection over the same
   episodes finds nothing new.

Capabilities: each cluster has a domain — the most common frame of its episodes (``task``,
``debug``...), or the rule's trigger concept when none has a frame (setting
``capability_domain``). Each success and failure among its episodes is applied, oldest first, with
the self-model's formulas (:func:`app.memory.self_model.capability_after`: success-rate EMA,
proficiency ± step · complexity). The self-model's service functions each open their own
transaction, so the reflection runs the same catalog queries (``memory/self_model/get_capability``,
``save_capability``, ``get_identity``, ``set_knowledge_gaps``) and the same pure functions inside
the reflection's transaction instead: a reflection is then all-or-nothing, capabilities included.

Knowledge gaps: a cluster whose outcomes are mostly failures (failure share of its success /
failure / partial outcomes above ``gap_failure_share``) adds the gap "<trigger concept> (similar
episodes mostly failed)", merged with :func:`app.memory.self_model.merged_gaps`.

``dry_run`` runs every step, the reasoner included (the rules are previewed), and writes nothing.

The modules, in the order of the steps: ``models`` (request, report, errors), ``candidates``
(reading the episodes), ``clustering`` (pure numpy), ``plans`` (a cluster's members, briefs,
domain and gap), ``abstraction`` (the reasoner's rules, embedded), ``writing`` (the one
transaction), ``procedure`` (:func:`~app.memory.reflection.procedure.reflect`, the whole).
"""
