"""The research bench's balanced sample (tools/eval_data/vitaminc.py): a quarter each of
confirmed, refuted, contested and NOT_ENOUGH_INFO claims, each claim's expected verdict (from the
labels of its sentences left in the corpus) the class it was given."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from tools.eval_data.vitaminc import (
    FIXTURE_DATA,
    VitaminCRow,
    balanced_sample,
    expected_verdict,
    read_rows,
)


def _by_claim(rows: list[VitaminCRow]) -> dict[str, list[VitaminCRow]]:
    by_claim: dict[str, list[VitaminCRow]] = defaultdict(list)
    for row in rows:
        by_claim[row.claim].append(row)
    return by_claim


def _expected(
    by_claim: dict[str, list[VitaminCRow]], claim: str, kept: dict[tuple[str, str], VitaminCRow]
) -> str:
    return expected_verdict({r.label for r in by_claim[claim] if (r.page, r.evidence) in kept})


def test_a_quarter_of_each_class_and_every_expected_verdict_is_its_class() -> None:
    # The repository's first 400 rows (contested claims and one SUPPORTS-only claim) and ten
    # NOT_ENOUGH_INFO claims written here (the 400 rows have none).
    unrelated = [
        VitaminCRow(400 + n, f"Page {n}", f"Page {n} is red.", f"Page {n} has {n} rooms.",
                    "NOT_ENOUGH_INFO")
        for n in range(10)
    ]  # fmt: skip
    by_claim = _by_claim([*read_rows(FIXTURE_DATA), *unrelated])
    pool = sorted(by_claim)
    claims, kept = balanced_sample(by_claim, pool, 40, random.Random(16))
    expected = Counter(_expected(by_claim, claim, kept) for claim in claims)
    assert expected == {"confirmed": 10, "refuted": 10, "contested": 10, "undecided": 10}
    # Seeded: the same seed draws the same claims; another seed others.
    assert balanced_sample(by_claim, pool, 40, random.Random(16))[0] == claims
    assert balanced_sample(by_claim, pool, 40, random.Random(17))[0] != claims
    # The one claim with SUPPORTS rows only is confirmed whenever it is drawn, never refuted.
    [one_sided] = [c for c, rows in by_claim.items() if {r.label for r in rows} == {"SUPPORTS"}]
    for seed in range(10):
        claims, kept = balanced_sample(by_claim, pool, 200, random.Random(seed))
        if one_sided in claims:
            assert _expected(by_claim, one_sided, kept) == "confirmed"


def test_a_sentence_two_claims_share_is_never_left_out_for_one_and_kept_for_the_other() -> None:
    # "5" is the supporting revision of claim A and the refuting one of claim B (and the
    # other way round for "7"): A confirmed (7 left out) makes B refuted, never confirmed.
    five = "X has 5 members."
    seven = "X has 7 members."
    rows = [
        VitaminCRow(0, "X", "X has five members.", five, "SUPPORTS"),
        VitaminCRow(1, "X", "X has five members.", seven, "REFUTES"),
        VitaminCRow(2, "X", "X has seven members.", seven, "SUPPORTS"),
        VitaminCRow(3, "X", "X has seven members.", five, "REFUTES"),
        VitaminCRow(4, "Y", "Y is red.", "Y was built in 1900.", "NOT_ENOUGH_INFO"),
    ]
    by_claim = _by_claim(rows)
    for seed in range(20):
        claims, kept = balanced_sample(by_claim, sorted(by_claim), 12, random.Random(seed))
        verdicts = {claim: _expected(by_claim, claim, kept) for claim in claims}
        # Both X claims in, as confirmed/refuted or contested/contested; never both confirmed.
        x_verdicts = sorted(v for c, v in verdicts.items() if c.startswith("X"))
        assert x_verdicts in (["confirmed", "refuted"], ["contested", "contested"], ["contested"])
        assert verdicts["Y is red."] == "undecided"
