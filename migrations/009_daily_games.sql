-- A daily game says which day it was the daily deal of (null for every other game), for "My games".
ALTER TABLE games ADD COLUMN daily TEXT;
