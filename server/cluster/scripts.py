"""The cluster's Lua scripts: each runs atomically in Redis (a new table's code and lease, claims, renewals)."""

# reserve a new code (SET NX) and take the table's lease (SET NX PX) with a fresh number from INCR, atomically
NEW_TABLE = """
if redis.call('set', KEYS[1], ARGV[1], 'NX') == false then return 0 end
local n = redis.call('incr', KEYS[3])
redis.call('set', KEYS[2], ARGV[2] .. '#' .. n, 'PX', ARGV[3])
return n
"""
# take the lease of an existing table if nobody holds it, or its holder is gone (its presence key ran out), or the
# holder is an earlier life of this node; the number is above ``floor`` (the database's newest). Safe even when
# the holder is only paused: the database refuses its appends from the older number (fencing).
CLAIM = """
local v = redis.call('get', KEYS[1])
if v then
  local holder = string.match(v, '^(.*)#')
  if holder ~= ARGV[1] and redis.call('exists', ARGV[5] .. 'node:' .. holder) == 1 then return 0 end
end
local n = redis.call('incr', KEYS[3])
if n <= tonumber(ARGV[4]) then n = tonumber(ARGV[4]) + 1; redis.call('set', KEYS[3], n) end
redis.call('set', KEYS[1], ARGV[1] .. '#' .. n, 'PX', ARGV[2])
redis.call('set', KEYS[2], ARGV[3], 'NX')
return n
"""
# where a code's table lives: {} (no such code), {table_id} (nobody holds it), {table_id, holder, holder alive 0/1}
LOOKUP = """
local id = redis.call('get', KEYS[1])
if not id then return {} end
local v = redis.call('get', ARGV[1] .. 'lease:' .. id)
if not v then return {id} end
local holder = string.match(v, '^(.*)#')
return {id, holder, redis.call('exists', ARGV[1] .. 'node:' .. holder)}
"""
# of the given tables (KEYS: their lease keys), the ones nobody holds or whose holder is gone (1-based positions)
ORPHANS = """
local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('get', key)
  if not v then table.insert(out, i)
  else
    local holder = string.match(v, '^(.*)#')
    if holder ~= ARGV[2] and redis.call('exists', ARGV[1] .. 'node:' .. holder) == 0 then table.insert(out, i) end
  end
end
return out
"""
# renew a lease we hold; a lease that vanished (Redis restarted empty) is set again; another holder: lost (0)
RENEW = """
local v = redis.call('get', KEYS[1])
if v == false then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
elseif v ~= ARGV[1] then return 0
else redis.call('pexpire', KEYS[1], ARGV[2]) end
redis.call('set', KEYS[2], ARGV[3], 'NX')
return 1
"""
# delete a key only while it holds our value
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
return 1
"""
