"""Cosine scales of the bundled models: every similarity threshold of Credence is written on
all-MiniLM-L6-v2's scale (the model it was tuned on); a model of another scale maps it onto its
own by quantile matching. The knots pair the same quantiles of the two models' cosines over the
same sentence pairs (bench/embedding_calibration.py made them from LoCoMo dev turns and questions
and VitaminC dev claims and evidence: ~250,000 pairs of each kind), with -1 and 1 at the ends."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Calibration:
    """Knots pairing quantiles of all-MiniLM-L6-v2's cosine (``reference``) with the model's, for
    passage–passage pairs (``passage``) and for query–passage pairs (``query``). Empty: the
    model's scale is MiniLM's."""

    reference: tuple[float, ...] = ()
    passage: tuple[float, ...] = ()
    query: tuple[float, ...] = ()


# The reference model's (all-MiniLM-L6-v2) cosine quantiles, the scale every threshold was
# tuned on; each model's knots below map onto it.
REFERENCE_KNOTS = (
    -1.0000,
    -0.1144,
    -0.0666,
    -0.0386,
    0.0003,
    0.0338,
    0.0686,
    0.1115,
    0.1714,
    0.2534,
    0.3356,
    0.4295,
    0.5027,
    0.5873,
    0.6430,
    0.6916,
    0.7494,
    0.7985,
    0.8502,
    0.9489,
    1.0000,
)

E5_Q_CALIBRATION = Calibration(
    reference=REFERENCE_KNOTS,
    passage=(
        -1.0000,
        0.6375,
        0.6581,
        0.6701,
        0.6854,
        0.6979,
        0.7107,
        0.7265,
        0.7533,
        0.7927,
        0.8182,
        0.8444,
        0.8647,
        0.8864,
        0.9002,
        0.9120,
        0.9251,
        0.9335,
        0.9428,
        0.9647,
        1.0000,
    ),
    query=(
        -1.0000,
        0.6313,
        0.6642,
        0.6763,
        0.6905,
        0.7016,
        0.7117,
        0.7230,
        0.7382,
        0.7603,
        0.7817,
        0.8036,
        0.8202,
        0.8399,
        0.8539,
        0.8660,
        0.8808,
        0.8943,
        0.9080,
        0.9448,
        1.0000,
    ),
)
E5_CALIBRATION = Calibration(
    reference=REFERENCE_KNOTS,
    passage=(
        -1.0000,
        0.6330,
        0.6539,
        0.6661,
        0.6817,
        0.6944,
        0.7074,
        0.7235,
        0.7511,
        0.7907,
        0.8167,
        0.8434,
        0.8643,
        0.8866,
        0.9006,
        0.9126,
        0.9256,
        0.9345,
        0.9445,
        0.9650,
        1.0000,
    ),
    query=(
        -1.0000,
        0.6279,
        0.6607,
        0.6728,
        0.6872,
        0.6983,
        0.7084,
        0.7198,
        0.7353,
        0.7578,
        0.7797,
        0.8022,
        0.8196,
        0.8399,
        0.8542,
        0.8664,
        0.8811,
        0.8948,
        0.9085,
        0.9452,
        1.0000,
    ),
)
