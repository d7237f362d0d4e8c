"""The acceptance bar: recall of at least 95% on real formats, at most two false alarms."""

from __future__ import annotations

from prune_memory.secrets.mask import mask_text
from prune_memory.secrets.scan import find_secrets, find_spans
from tests.secrets.corpus import Sample, lookalikes, secrets


def _caught(sample: Sample) -> bool:
    start = sample.text.index(sample.value)
    end = start + len(sample.value)
    return any(span.start < end and start < span.end for span in find_spans(sample.text))


def test_corpus_is_big_and_varied_enough() -> None:
    found = secrets()
    assert len(found) >= 40
    assert len({s.kind for s in found}) >= 10
    assert len(lookalikes()) >= 40
    assert all(s.value and s.value in s.text for s in found)


def test_recall_is_at_least_95_percent() -> None:
    found = secrets()
    missed = [s.kind + ": " + mask_text(s.text)[:60] for s in found if not _caught(s)]
    assert (len(found) - len(missed)) / len(found) >= 0.95, missed


def test_at_most_two_false_positives() -> None:
    alarms = [(s.text[:60], [h.label for h in find_secrets(s.text)])
              for s in lookalikes() if find_secrets(s.text)]
    assert len(alarms) <= 2, alarms


def test_the_aws_documentation_key_is_not_a_secret() -> None:
    assert find_secrets("key id AKIAIOSFODNN7EXAMPLE from the AWS guide") == ()


def test_masking_removes_every_value_it_catches() -> None:
    for sample in secrets():
        if _caught(sample):
            assert sample.value not in mask_text(sample.text), sample.kind


def test_hits_never_carry_the_value() -> None:
    for sample in secrets():
        for hit in find_secrets(sample.text):
            assert sample.value not in repr(hit)
            assert len(hit.first4) <= 4
