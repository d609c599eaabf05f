-- Hand reviews: the hard player's verdict on one seat's decisions in one hand, cached because a review
-- costs seconds of CPU. The key names the game (a stored game's id, or a live table's game), seat, hand and budget.
CREATE TABLE reviews (
    key TEXT PRIMARY KEY,
    body TEXT NOT NULL,            -- the review as JSON
    created_at REAL NOT NULL
) WITHOUT ROWID;
