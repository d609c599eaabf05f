"""The learned rollout policy's weights (``policy.py``): written by ``hearts train``, not by hand."""

#: Bumped when the features change; a model of another version is not loaded.
VERSION = 2
#: The command that made these weights.
MADE_BY = 'hearts train --variant classic --players hard --target choices --rounds 1 --positions 60000 --seed 1'
#: The training run's figures per round.
LOG = (
    'round 1, positions 60000, seconds 416.0, loss 1.0231, agrees 0.6014, rule_of_thumb_agrees 0.3366',
)
#: One integer per feature and kind of play (lead, follow, discard), scaled by ``policy.SCALE``.
WEIGHTS: tuple[int, ...] = (
    # lead
    -64,  # rank
    -127,  # points card
    -793,  # big card
    -298,  # left in suit
    32,  # others in suit
    -90,  # above, out
    128,  # below, out
    0,  # takes for now
    -809,  # no higher out
    0,  # points taken
    0,  # big taken
    0,  # big out
    0,  # stops a moon
    0,  # own moon
    608,  # voids suit
    -142,  # others void
    858,  # our lowest
    -160,  # our highest
    -2228,  # above the big
    0,  # last and takes
    336,  # rule of thumb
    # follow
    -3,  # rank
    -1106,  # points card
    -1106,  # big card
    0,  # left in suit
    0,  # others in suit
    -421,  # above, out
    421,  # below, out
    -1797,  # takes for now
    -649,  # no higher out
    -1433,  # points taken
    -2023,  # big taken
    706,  # big out
    47,  # stops a moon
    1305,  # own moon
    0,  # voids suit
    0,  # others void
    968,  # our lowest
    -595,  # our highest
    -891,  # above the big
    1240,  # last and takes
    53,  # rule of thumb
    # discard
    33,  # rank
    454,  # points card
    2463,  # big card
    -449,  # left in suit
    76,  # others in suit
    -368,  # above, out
    373,  # below, out
    0,  # takes for now
    0,  # no higher out
    0,  # points taken
    0,  # big taken
    0,  # big out
    0,  # stops a moon
    0,  # own moon
    -256,  # voids suit
    -123,  # others void
    1663,  # our lowest
    88,  # our highest
    1731,  # above the big
    0,  # last and takes
    -503,  # rule of thumb
)
