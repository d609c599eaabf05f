"""Hard's search values outcomes by the variant's scoring: doubling queen, cancelling Q♣, doubling 9, teams, sun."""

import pytest

from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.value import valuer as _valuer
from hartenjagen.shared.cards import parse_mask
from hartenjagen.shared.game import Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

ALL = " ".join(r + s for s in "CDSH" for r in "23456789TJQKA")


def _value(options: dict, taken: list[str], doubled: list[str] | None = None, seat: int = 0) -> float:
    """The worth for ``seat`` of a hand ending with these cards taken, seen from the first view of a game."""
    game = Game(make_rules(options))
    game.deal_seeded(1)
    value = _valuer(Knowledge(view_for(game, seat)))
    masks = [parse_mask(t.split()) for t in taken]
    return value(masks, [parse_mask(t.split()) for t in doubled] if doubled else [0, 0, 0, 0])


# (why, options, taken S W N E, doubled tricks' cards, worth for South)
CASES = [
    ("the Q♥ doubles South's hearts", {"variant": "parker_brothers"}, ["QH 2H", "", "", ""], None, -4),
    ("the Q♣ cancels South's Q♠", {"variant": "parker_brothers"}, ["QC QS 2H", "", "", ""], None, -1),
    (
        "a 9 doubles North's trick: South's team pays 14",
        {"variant": "achterhoeks"},
        ["", "", "9C JC 2C 3C", ""],
        ["", "", "9C JC 2C 3C", ""],
        -14,
    ),
    ("the partner's points are South's own", {"variant": "achterhoeks"}, ["", "", "KS", "2H"], None, -5),
    ("the sun: the other team pays 52, South keeps the Krieke", {"variant": "achterhoeks"}, [ALL, "", "", ""], None, 5),
    ("the doormars: everyone else pays 16", {"variant": "achterhoeks_bar"}, [ALL, "", "", ""], None, 0),
    ("chips: South alone without hearts takes the pot of 4", {"variant": "chips"}, ["2C", "2H", "3H", "4H"], None, 4),
]


@pytest.mark.parametrize(("options", "taken", "doubled", "worth"), [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_the_search_values_an_outcome_by_the_variants_scoring(options, taken, doubled, worth):
    assert _value(options, taken, doubled) == worth
