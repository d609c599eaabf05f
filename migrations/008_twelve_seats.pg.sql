-- PostgreSQL form of 008_twelve_seats.sql: tables of three to twelve seats, a seat number is 0..11.
ALTER TABLE game_seats DROP CONSTRAINT game_seats_seat_check;
ALTER TABLE game_seats ADD CONSTRAINT game_seats_seat_check CHECK (seat BETWEEN 0 AND 11);
ALTER TABLE game_hands DROP CONSTRAINT game_hands_seat_check;
ALTER TABLE game_hands ADD CONSTRAINT game_hands_seat_check CHECK (seat BETWEEN 0 AND 11);
ALTER TABLE game_toppers DROP CONSTRAINT game_toppers_seat_check;
ALTER TABLE game_toppers ADD CONSTRAINT game_toppers_seat_check CHECK (seat BETWEEN 0 AND 11);
