"""The fast scorers name the rule features they score, and refuse rules with any other (a new field included)."""

import dataclasses
import itertools

import pytest

from hartenjagen.shared.bots import kernel, kernel_flags
from hartenjagen.shared.bots.value import VALUED, valued
from hartenjagen.shared.rules import UNSCORED, Rules, scoring_features
from hartenjagen.shared.sim import SIMPLE_SCORING, simple_scoring
from hartenjagen.shared.variants import VARIANTS, make_rules

FAST_SCORERS = {"sim": SIMPLE_SCORING, "kernel": kernel.COMPILED_SCORING, "value": VALUED}


def _exclusions(rules: Rules) -> bool:
    """The simple scorer's rule before it named its features: no teams, doublers, cancellers, sun, bonus cards."""
    return (
        not rules.teams
        and rules.heart_doubler < 0
        and not rules.cancel
        and not rules.sun
        and rules.trick_doubler < 0
        and not rules.spade_ten
        and all(m & ~rules.penalty_mask == 0 for m, _ in rules.groups)
    )


def _variant_rules() -> list[Rules]:
    """Every variant, and every variant with each of its switches flipped (one at a time and two at a time)."""
    out = []
    for name, spec in VARIANTS.items():
        switches = [k for k, v in spec.options.items() if type(v) is bool]
        out.append(make_rules({"variant": name}))
        for a, b in itertools.combinations(switches, 2):
            for flips in ({a: not spec.options[a]}, {a: not spec.options[a], b: not spec.options[b]}):
                try:
                    out.append(make_rules({"variant": name, **flips}))
                except ValueError:  # a pairing the variant refuses
                    pass
    return out


@pytest.mark.parametrize("rules", _variant_rules(), ids=lambda r: f"{r.variant}:{sorted(r.options.items())}")
def test_the_named_features_choose_the_same_scorers_as_before(rules):
    assert rules.scoring == scoring_features(rules)
    assert simple_scoring(rules) == _exclusions(rules)
    assert kernel.compiled_scoring(rules) == (_exclusions(rules) and not rules.start_chips)
    assert valued(rules) is rules  # every variant's features are valued


def test_every_feature_of_every_variant_is_named_by_the_valuer():
    seen = set().union(*(r.scoring for r in _variant_rules()))
    assert seen <= VALUED
    assert kernel.COMPILED_SCORING <= SIMPLE_SCORING <= VALUED


def test_a_new_scoring_field_is_refused_by_every_fast_scorer_until_one_names_it():
    # A field added to Rules counts as a scoring feature unless it is listed as unscored.
    @dataclasses.dataclass(frozen=True)
    class Newer(Rules):
        double_diamonds: bool = False

    base = make_rules({"variant": "classic"})
    plain = Newer(**{f.name: getattr(base, f.name) for f in dataclasses.fields(Rules)})
    assert plain.scoring == base.scoring  # at its default the new field is not a feature
    newer = dataclasses.replace(plain, double_diamonds=True)
    assert "double_diamonds" in newer.scoring
    assert not simple_scoring(newer)
    assert not kernel.compiled_scoring(newer)
    with pytest.raises(ValueError, match="double_diamonds"):
        valued(newer)
    for name, named in FAST_SCORERS.items():
        assert "double_diamonds" not in named, name


def test_fields_without_a_default_are_named_with_their_value():
    assert {"moon=choose", "end=dutch", "exact_zero=False", "tie=share"} <= make_rules({"variant": "dutch"}).scoring
    assert "moon=self" in make_rules({"moon": "self"}).scoring
    assert "bonus_cards" in make_rules({"jack_of_diamonds": -10}).scoring
    assert "bonus_cards" not in make_rules({}).scoring


def test_unscored_names_only_fields_of_rules():
    assert UNSCORED <= {f.name for f in dataclasses.fields(Rules)}


def test_the_kernel_flags_have_distinct_names_in_order():
    names = [n for n in vars(kernel_flags) if n.isupper()]
    places = [getattr(kernel_flags, n) for n in names]
    assert sorted(places) == list(range(len(places)))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rule_flags_put_each_rule_field_at_its_name(variant):
    f = kernel_flags
    rules = make_rules({"variant": variant})
    flags = kernel.rule_flags(rules)
    assert flags[f.PENALTY] == rules.penalty_mask
    assert flags[f.FIRST_TRICK_POINTS] == int(rules.first_trick_points)
    assert flags[f.QUEEN_BREAKS_HEARTS] == int(rules.queen_breaks_hearts)
    assert flags[f.QUEEN_WAITS] == int(rules.queen_waits)
    assert flags[f.QUEEN_MUST_GO] == int(rules.queen_must_go)
    assert flags[f.HEARTS_MUST_BREAK] == int(rules.hearts_must_break)
    assert flags[f.FIRST_LEAD] == rules.first_lead
    assert flags[f.NO_MOON] == int(rules.moon == "none")
    assert flags[f.GROUPS] == len(rules.point_groups)
    groups = [(flags[f.GROUP_MASK + 2 * g], flags[f.GROUP_POINTS + 2 * g]) for g in range(flags[f.GROUPS])]
    assert tuple(groups) == rules.point_groups
    assert len(flags) == f.GROUP_MASK + 2 * len(rules.point_groups)
