"""Scripted hands for the core tests: every seat holds exactly the cards it plays."""

#: Dutch, South leads: each seat holds two cards of every suit. West takes 4 hearts, South 4
#: hearts, North JC and QS: points S 4, W 4, N 7, E 0.
DUTCH_SPLIT = """
S:7C W:8C N:9C E:TC
E:JC S:QC W:KC N:AC
N:7H E:8H S:9H W:TH
W:JH N:QH E:KH S:AH
S:7S W:8S N:9S E:TS
E:JS S:QS W:KS N:AS
N:7D E:8D S:9D W:TD
W:JD N:QD E:KD S:AD
"""
DUTCH_SPLIT_POINTS = [4, 4, 7, 0]

#: Dutch, South leads: South holds every heart, the others one suit each, so South takes every
#: trick and all 15 points (a "mars").
DUTCH_MARS = """
S:7H W:7S N:7C E:7D
S:8H W:8S N:8C E:8D
S:9H W:9S N:9C E:9D
S:TH W:TS N:TC E:TD
S:JH W:JS N:JC E:JD
S:QH W:QS N:QC E:QD
S:KH W:KS N:KC E:KD
S:AH W:AS N:AC E:AD
"""

#: Classic, no passing: South holds every club and leads 2C; West holds every heart, North every
#: spade (QS kept out of the first trick), East every diamond. South takes all 26: a moon.
CLASSIC_MOON = "\n".join(f"S:{r}C W:{r}H N:{s}S E:{r}D" for r, s in zip("23456789TJQKA", "23456789TJAQK", strict=True))

#: Classic, no passing: East holds AC and takes the first trick with a heart from West (who holds
#: only hearts), then leads 2D to South's AD; South takes every other trick: QS and 12 hearts.
CLASSIC_25_AND_1 = "\n".join(
    [
        "S:2C W:2H N:2S E:AC",  # West holds only hearts, so a heart may go to the first trick: East takes 1
        "E:2D S:AD W:3H N:3S",
    ]
    + [
        f"S:{c}C W:{h}H N:{s}S E:{d}D"
        for c, h, s, d in zip("3456789TJQK", "456789TJQKA", "456789TJQKA", "3456789TJQK", strict=True)
    ]
)
CLASSIC_25_AND_1_POINTS = [25, 0, 0, 1]

#: Classic, no passing, written out whole: West takes the first trick with AC and leads 5D;
#: North, void in diamonds, plays AS; South's 7D is the highest diamond and wins.
CLASSIC_VOID_HANDS = [
    "2C 5C 6C 7C 2D 3D 7D QS 2H 3H 4H 5H 6H",
    "AC 5D 8D 9D TD 7H 8H 9H TH JH QH KH AH",
    "3C 8C 9C TC 2S 3S 4S 5S 6S 7S 8S 9S AS",
    "4C JC QC KC 4D 6D JD QD KD AD TS JS KS",
]
CLASSIC_VOID_TRICKS = """
S:2C W:AC N:3C E:4C
W:5D N:AS E:6D S:7D
"""
