"""Who a connection is: its greeting, the one-time codes that add a device, its devices and signing one out."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..connection.closing import Close
from ..players.devices import shown
from ..table import outgoing
from ..table.errors import ProtocolError
from ..table.messages import DeviceCode, Devices, Hello, Ping, SignOutDevice, UseDeviceCode
from ..table.outgoing import PROTOCOL_VERSION
from ..table.tokens import token_hash
from .binding import handles
from .seats import known
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


@handles(Ping)
def ping(ctx: Services, client: Client, msg: Ping) -> None:
    """``ping``: ``pong``, answered by the node that holds the connection, before ``hello`` too."""
    client.push(outgoing.pong())


@handles(Hello)
async def hello(ctx: Services, client: Client, msg: Hello) -> None:
    """``hello``: the player this connection plays as (a new one, or the one its token names)."""
    if msg.version != PROTOCOL_VERSION:
        raise ProtocolError("bad_version", version=msg.version)
    if client.player_id is not None:
        raise ProtocolError("hello_once")  # a connection keeps the player it greeted with
    if ctx.names.blocked(msg.name):
        raise ProtocolError("bad_name")
    deadline, client.hello_by = client.hello_by, math.inf  # a hello under way is not late, however long it waits
    try:
        pid, token, name = await _player(ctx, client, msg.name, msg.player_token)
    except BaseException:
        client.hello_by = deadline  # refused: the connection still has to say a hello that holds, in time
        raise
    client.player_id, client.name, client.token_hash = pid, name, token_hash(token)
    client.push(outgoing.welcome(token, name))


async def _player(ctx: Services, client: Client, name: str, given: str | None) -> tuple[int, str, str]:
    """The player ``given`` names, or a new one while the address may make one (``players_limited``)."""
    budget = ctx.limits.new_players
    if not budget.take(client.address_key):  # the address made its new players for now: a known token only
        found = await ctx.store.returning(name, given) if given else None
        if found is None:
            raise ProtocolError("players_limited", count=budget.limit)
        return found
    try:
        found = await ctx.store.player(name, given)
    except BaseException:
        budget.give_back(client.address_key)  # nothing was stored
        raise
    if found[1] == given:  # a returning player: no new one was made
        budget.give_back(client.address_key)
    return found


@handles(DeviceCode)
async def device_code(ctx: Services, client: Client, msg: DeviceCode) -> None:
    """``device_code``: a one-time code (and its link) that signs another device in as this player."""
    origin = client.origin
    origin = origin if origin.startswith(("http://", "https://")) and len(origin) <= 200 else ""
    client.push(await ctx.devices.ask(known(client)[0], origin))


@handles(UseDeviceCode)
async def use_device_code(ctx: Services, client: Client, msg: UseDeviceCode) -> None:
    """``use_device_code``: this connection becomes the player whose code it gives (a wrong code is a guess)."""
    if ctx.guessing(client):
        raise ProtocolError("rate_limited")
    found = await ctx.devices.use(msg.code, msg.label)
    if found is None:
        raise ctx.failed(client, "unknown_device_code")
    pid, token, name = found
    client.player_id, client.name, client.token_hash = pid, name, token_hash(token)
    client.push(outgoing.device_joined(token, name))
    notice = outgoing.device_code_used(shown(msg.code), msg.label, client.token_hash[:16])
    code_used(ctx, pid, notice)
    if ctx.cluster is not None:
        await ctx.cluster.code_used(pid, notice)  # the page that shows the code may be on another node


@handles(Devices)
async def devices(ctx: Services, client: Client, msg: Devices) -> None:
    """``devices``: the devices signed in as this player (a device signed out meanwhile is closed instead)."""
    listing = await ctx.devices.listing(known(client)[0], client.token_hash)
    if client.token_hash is not None and not any(d["this"] for d in listing["devices"]):
        client.close_soon(Close.SIGNED_OUT)  # this device was signed out (a node that missed the notice)
        return
    client.push(listing)


@handles(SignOutDevice)
async def sign_out_device(ctx: Services, client: Client, msg: SignOutDevice) -> None:
    """``sign_out_device``: that device no longer holds this player, here and on every other node."""
    device, (player_id, _) = msg.device, known(client)
    await ctx.store.drop_device(player_id, device)
    client.push(await ctx.devices.listing(player_id, client.token_hash))
    signed_out(ctx, player_id, device)
    if ctx.cluster is not None:
        await ctx.cluster.sign_out(player_id, device)  # every other node does the same


def code_used(ctx: Services, player_id: int, notice: dict[str, Any]) -> None:
    """One of ``player_id``'s device codes was used (here or on another node): tell the player's open pages here.

    Every connection of the player but the new device's gets ``device_code_used``: the page that shows the code
    marks it used and lists the new device.
    """
    for other in list(ctx.clients):
        if other.player_id == player_id and other.token_hash is not None and other.token_hash[:16] != notice["device"]:
            other.push(notice)


def signed_out(ctx: Services, player_id: int, device: str) -> None:
    """Device ``device`` no longer holds ``player_id`` (signed out here or on another node).

    Its token leaves the cache of returning players and its open connections here close (``SIGNED_OUT``).
    """
    ctx.store.forget_device(player_id, device)
    for other in list(ctx.clients):
        if other.player_id == player_id and other.token_hash is not None and other.token_hash[:16] == device:
            other.close_soon(Close.SIGNED_OUT)
