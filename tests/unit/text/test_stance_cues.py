"""Contradiction cues and claim splitting: pure text functions of the offline reasoner."""

from __future__ import annotations

from app.text.claims import split_claims, split_sentences
from app.text.stance_cues import (
    antonyms,
    contradiction_cues,
    is_denial,
    name_mismatches,
    negation_mismatch,
    number_mismatches,
    quantities,
    restated_after_denial,
)
from app.text.words import token_similarity


def test_negation_mismatch_needs_the_negated_words_to_be_shared() -> None:
    belief = "Revenue is recognised when the obligation is satisfied"
    assert negation_mismatch("Revenue is not recognised when the obligation is satisfied", belief)
    assert negation_mismatch("Revenue isn't recognised then", belief)
    assert not negation_mismatch("Revenue is recognised when the obligation is satisfied", belief)
    # Both negate: no mismatch.
    assert not negation_mismatch("Costs are never capitalised", "Costs are not capitalised")
    # The negation is about something the belief does not mention.
    assert not negation_mismatch("Revenue is recognised, not that Bob minds", belief)


def test_denial_phrases() -> None:
    assert is_denial("That's wrong: revenue is deferred.")
    assert is_denial("No, it closes at five.")
    assert is_denial("The claim is false.")
    assert not is_denial("The close is on the fifth working day.")


def test_antonyms_both_ways_and_only_when_the_other_word_is_missing() -> None:
    assert antonyms("Prices increased in March", "Prices decreased in March") == [
        ("increased", "decreased")
    ]
    assert antonyms("Overtime is prohibited", "Overtime is allowed") == [("prohibited", "allowed")]
    assert antonyms("Approval is optional", "Approval is required") == [("optional", "required")]
    assert antonyms("Prices increased in March", "Prices increased in March") == []
    # Words that qualify a number are left to the number cue.
    assert antonyms("more than 20 reviews", "less than 20 reviews") == []


def test_quantities_parse_units_comparators_and_kinds() -> None:
    found = quantities("It had more than 1,200 reviews, 45 % positive, in 2019 and $1.5 million")
    by_text = {quantity.text: quantity for quantity in found}
    assert by_text["1,200"].value == 1200 and by_text["1,200"].comparator == ">"
    assert by_text["1,200"].unit == "review"
    assert by_text["45 %"].kind == "percent"
    assert by_text["2019"].kind == "year"
    assert by_text["1.5 million"].value == 1_500_000
    # Days of the month and numbers inside names are not quantities.
    assert [q.text for q in quantities("On 4 April 2020 COVID-19 cases")] == ["2020"]


def test_number_mismatch() -> None:
    assert number_mismatches("The film received 289 reviews", "The film received 288 reviews")
    assert not number_mismatches("The film received 288 reviews", "The film received 288 reviews")
    assert number_mismatches("It received 288 reviews", "It received more than 288 reviews")
    assert not number_mismatches("It received 289 reviews", "It received more than 288 reviews")
    assert number_mismatches("The close takes 7 days", "The close takes 5 days")
    assert number_mismatches("Founded in 1998", "Founded in 1999")
    assert not number_mismatches("Founded in 1998", "Founded before 1999")
    # Two bounds the same way never clash.
    assert not number_mismatches("up to 800 seats", "less than 825 seats")
    # No number on one side: nothing to compare.
    assert not number_mismatches("The film was well reviewed", "It received 288 reviews")


def test_name_mismatch() -> None:
    assert name_mismatches(
        "Invoices are approved by Bob Smith", "Invoices are approved by Alice Jones"
    )
    assert not name_mismatches(
        "Invoices are approved by Alice Jones", "Invoices are approved by Alice Jones"
    )
    assert not name_mismatches("Invoices are approved quickly", "Invoices are approved by Alice")


def test_contradiction_cues_strongest_first() -> None:
    cues = contradiction_cues(
        "That's wrong: revenue is not recognised when the obligation is satisfied",
        "Revenue is recognised when the performance obligation is satisfied",
    )
    assert [cue.name for cue in cues] == ["the claim rejects it (denial)", "negation mismatch"]
    assert cues[0].strength >= cues[1].strength
    assert contradiction_cues("Revenue is recognised", "Revenue is recognised") == []


def test_split_claims_drops_questions_and_courtesy() -> None:
    message = (
        "Hi there! Thanks so much. The close is on day 5. What's the weather? "
        "Revenue is deferred, e.g. for licences; costs are expensed.\nSee you"
    )
    assert split_claims(message) == [
        "The close is on day 5.",
        "Revenue is deferred, e.g. for licences",
        "costs are expensed.",
    ]
    assert split_claims("What is the policy") == []
    assert split_claims("") == []


def test_split_sentences_keeps_decimals_and_abbreviations() -> None:
    assert split_sentences("It rose 7.5 percent. Dr. Smith agreed.") == [
        "It rose 7.5 percent.",
        "Dr. Smith agreed.",
    ]


def test_token_similarity_ignores_stopwords_and_inflection() -> None:
    assert token_similarity("The obligations are satisfied", "obligation satisfied") == 1.0
    assert token_similarity("Revenue is recognised", "The weather is nice") == 0.0


def test_a_negation_in_another_clause_of_a_long_statement_is_no_contradiction() -> None:
    from app.text.stance_cues import contradiction_cues

    claim = "Revenue from a SaaS subscription is recognised ratably over the service period."
    statement = (
        "Revenue is recognised when, or as, control of a promised good or service passes to the "
        "customer, at the consideration the entity expects to be entitled to; invoicing or "
        "collecting cash does not by itself make revenue earned (ASC 606)."
    )
    assert contradiction_cues(claim, statement) == []
    hosted = (
        "Hosted software is a service, not a licence of intellectual property, unless the "
        "customer may take possession of the software (ASC 985-20-15-5); so the licence "
        "guidance does not apply to ordinary SaaS."
    )
    assert contradiction_cues(claim, hosted) == []
    # The same negation on the clause the claim is about still counts.
    denial = "SaaS revenue is not recognised ratably over the service period."
    ratable = (
        "A SaaS subscription is a stand-ready obligation satisfied over time, so its revenue is "
        "recognised ratably over the service period; set-up fees are not a separate obligation."
    )
    assert [cue.name for cue in contradiction_cues(denial, ratable)] == ["negation mismatch"]


def test_a_denial_restating_the_statement_is_judged_on_what_follows_it() -> None:
    statement = "Known misstatements that are clearly trivial are not left unadjusted any more."
    claim = "No: known misstatements that are clearly trivial may not be left unadjusted"
    assert restated_after_denial(claim, statement) == (
        "known misstatements that are clearly trivial may not be left unadjusted"
    )
    assert restated_after_denial("That's wrong: they are not left unadjusted", statement)
    # What follows contradicts the statement: the denial stands (no restatement).
    opposite = "Known misstatements that are clearly trivial may be left unadjusted."
    assert restated_after_denial(claim, opposite) is None
    # No denial at the start, too little after it, or "No." before a number.
    assert restated_after_denial("Known errors are booked.", statement) is None
    assert restated_after_denial("No, never.", statement) is None
    assert restated_after_denial("No. 9 misstatements are not left unadjusted", statement) is None
