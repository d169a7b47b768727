"""The playground page's API and live socket, over the fake Discord with the fake's small
test bot: what a person sees, what they do (through the fake's own user simulation), the
notices when the bot breaks a rule, and the guards against other sites and hosts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.playground.live import QUEUE_SIZE, Page
from bot.playground.web import build_app
from bot.playground.world import PlaygroundWorld, build_world
from fake_discord import BotRunner, FakeDiscord
from fake_discord.minimal_bot import MinimalBot


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> PlaygroundWorld:
    return await build_world(fake_discord, users=3)


@pytest.fixture
async def bot(world: PlaygroundWorld, bot_runner: BotRunner) -> MinimalBot:
    client = MinimalBot()
    await bot_runner.start(client)
    return client


@pytest.fixture
async def client(world: PlaygroundWorld) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(build_app(world))) as test_client:
        yield test_client


def ids(world: PlaygroundWorld) -> tuple[str, str, str, str]:
    alice, bob, carol = (str(u.id) for u in world.users)
    return alice, bob, carol, str(world.channel.id)


async def slash(client: TestClient[Any, Any], user: str, channel: str, text: str) -> Any:
    resp = await client.post("/api/slash", json={"user": user, "channel": channel, "text": text})
    return resp.status, await resp.json()


async def messages(client: TestClient[Any, Any], user: str, channel: str) -> list[Any]:
    resp = await client.get("/api/messages", params={"user": user, "channel": channel})
    assert resp.status == 200
    return list((await resp.json())["messages"])


async def next_event(ws: aiohttp.ClientWebSocketResponse, kind: str) -> Any:
    """The next event of this kind on the socket (others are skipped)."""
    while True:
        event = await asyncio.wait_for(ws.receive_json(), 10)
        if event["type"] == kind:
            return event


async def test_the_page_and_its_assets(client: TestClient[Any, Any]) -> None:
    resp = await client.get("/")
    page = await resp.text()
    assert resp.status == 200 and "Local playground" in page and "This is not Discord" in page
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert "https://" not in page  # nothing loads from outside this machine
    js = await client.get("/static/playground.js")
    assert js.status == 200 and js.content_type == "text/javascript"
    css = await (await client.get("/static/playground.css")).text()
    assert "url(" not in css and "@import" not in css
    assert (await client.get("/static/nope.js")).status == 404


async def test_state(client: TestClient[Any, Any], world: PlaygroundWorld) -> None:
    state = await (await client.get("/api/state")).json()
    assert [u["name"] for u in state["users"]] == ["Alice", "Bob", "Carol"]
    assert [u["owner"] for u in state["users"]] == [True, False, False]
    assert [c["name"] for c in state["channels"]] == ["uno"]
    assert state["guild"]["name"] == "Playground"
    assert state["limits"]["ack_timeout"] == 3.0
    assert state["notices"] == []


async def test_a_command_its_message_and_clicks(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, bob, _, channel = ids(world)
    assert await slash(client, alice, channel, "/demo panel") == (200, {"ok": True})
    [panel] = await messages(client, bob, channel)
    assert panel["used"] == {"user": "Alice", "command": "demo panel"}
    assert panel["bot"] and panel["author"] == "UNO Bot" and not panel["ephemeral"]
    assert "Count is <strong>0</strong>" in panel["html"]
    assert 'data-accent="#e74c3c"' in panel["html"]
    assert 'data-custom-id="counter:0"' in panel["html"]

    resp = await client.post(
        "/api/click", json={"user": bob, "message": panel["id"], "custom_id": "counter:0"}
    )
    assert await resp.json() == {"ok": True}
    [panel] = await messages(client, bob, channel)
    assert "Count is <strong>1</strong>" in panel["html"]

    resp = await client.post(
        "/api/select",
        json={"user": bob, "message": panel["id"], "custom_id": "demo:color", "values": ["red"]},
    )
    assert await resp.json() == {"ok": True}


async def test_private_messages_only_for_their_person(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, bob, _, channel = ids(world)
    await slash(client, alice, channel, "/demo secret")
    [mine] = await messages(client, alice, channel)
    assert mine["ephemeral"] and "Only you can see this" in mine["html"]
    assert await messages(client, bob, channel) == []
    resp = await client.post(
        "/api/click", json={"user": bob, "message": mine["id"], "custom_id": "x"}
    )
    assert resp.status == 404


async def test_modal_opens_and_submits(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, bob, _, channel = ids(world)
    status, body = await slash(client, alice, channel, "/demo form")
    modal = body["modal"]
    assert status == 200 and modal["title"] == "Tell me your name"
    assert 'name="form:name"' in modal["html"] and 'maxlength="32"' in modal["html"]
    assert "Your name" in modal["html"] and "required" in modal["html"]
    # Only the person who opened it can send it.
    resp = await client.post(
        "/api/modal",
        json={"user": bob, "interaction": modal["interaction"], "values": {"form:name": "B"}},
    )
    assert resp.status == 404
    resp = await client.post(
        "/api/modal",
        json={
            "user": alice,
            "interaction": modal["interaction"],
            "values": {"form:name": "Ada", "form:comment": ""},
        },
    )
    assert await resp.json() == {"ok": True}
    [reply] = await messages(client, alice, channel)
    assert "Hello Ada" in reply["html"]


async def test_suggestions_and_the_bots_autocomplete(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, bob, _, channel = ids(world)

    async def suggest(user: str, text: str) -> Any:
        params = {"user": user, "channel": channel, "text": text}
        return await (await client.get("/api/suggest", params=params)).json()

    found = await suggest(alice, "/demo p")
    assert [i["label"] for i in found["items"]] == ["/demo panel", "/demo pick"]
    found = await suggest(alice, "/demo pick fruit:ap")
    assert [i["text"] for i in found["items"]] == [
        "/demo pick fruit:apple ",
        "/demo pick fruit:apricot ",
    ]
    # Commands gated by permissions are offered only to those who may use them.
    assert "/settings" in [i["label"] for i in (await suggest(alice, "/s"))["items"]]
    assert (await suggest(bob, "/s"))["items"] == []
    status, body = await slash(client, bob, channel, "/settings")
    assert status == 400 and "no /settings command" in body["error"]


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"user": "1", "channel": "{channel}", "text": "/demo panel"}, 400, "Unknown person"),
        ({"user": "{alice}", "channel": "x", "text": "/demo panel"}, 400, "channel must be an id"),
        ({"user": "{alice}", "channel": "42", "text": "/demo panel"}, 404, "Unknown channel"),
        ({"user": "{alice}", "channel": "{channel}", "text": "/demo"}, 400, "Did you mean"),
        ({"user": "{alice}", "channel": "{channel}", "text": "hi"}, 400, "start with /"),
    ],
)
async def test_bad_requests_get_clear_answers(
    client: TestClient[Any, Any],
    world: PlaygroundWorld,
    bot: MinimalBot,
    body: dict[str, str],
    status: int,
    error: str,
) -> None:
    alice, _, _, channel = ids(world)
    filled = {k: v.format(alice=alice, channel=channel) for k, v in body.items()}
    resp = await client.post("/api/slash", json=filled)
    answer = await resp.json()
    assert resp.status == status and error in answer["error"] and answer["ok"] is False
    assert world.fake.interactions == {}  # nothing reached the bot


async def test_what_discord_would_not_send_is_refused(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, _, _, channel = ids(world)
    await slash(client, alice, channel, "/demo panel")
    [panel] = await messages(client, alice, channel)
    resp = await client.post(
        "/api/click", json={"user": alice, "message": panel["id"], "custom_id": "nope"}
    )
    assert resp.status == 400
    assert "Discord would not send this" in (await resp.json())["error"]
    resp = await client.post(
        "/api/select",
        json={"user": alice, "message": panel["id"], "custom_id": "demo:color", "values": ["x"]},
    )
    assert resp.status == 400 and "not among options" in (await resp.json())["error"]
    resp = await client.post("/api/click", data="user=1")
    assert resp.status == 415


async def test_a_late_answer_fails_and_is_noticed(
    client: TestClient[Any, Any],
    world: PlaygroundWorld,
    bot: MinimalBot,
    bot_runner: BotRunner,
) -> None:
    alice, _, _, channel = ids(world)
    fake = world.fake
    fake.ack_timeout = 0.05
    bot.slow_delay = 0.2
    async with client.ws_connect(f"/ws?user={alice}") as ws:
        status, body = await slash(client, alice, channel, "/demo slow")
        assert status == 200 and body["ok"] is False and body["failed"] is True
        assert "did not answer within 0.05 s" in body["error"]
        failed = (await next_event(ws, "notice"))["notice"]
        assert failed["kind"] == "failed" and failed["title"] == "This interaction failed"
        assert failed["detail"] == ["The bot did not answer Alice's /demo slow within 0.05 s."]
        late = (await next_event(ws, "notice"))["notice"]
        assert late["kind"] == "rejected" and "404 Unknown interaction" in late["title"]
        assert late["detail"][0].startswith("POST /api/v10/interactions/")
        assert "/…/callback" in late["detail"][0]  # the interaction's token is not shown
        assert "token" not in late["detail"][0]
    state = await (await client.get("/api/state")).json()
    assert [n["kind"] for n in state["notices"]] == ["failed", "rejected"]
    await fake.wait_for(lambda: bot_runner.errors)
    bot_runner.errors.clear()
    fake.errors.clear()


async def test_rate_limits_and_invalid_payloads_are_noticed(
    client: TestClient[Any, Any],
    world: PlaygroundWorld,
    bot: MinimalBot,
    fake_discord: FakeDiscord,
) -> None:
    alice, _, _, channel = ids(world)
    fake_discord.channel_rate_limit = (1, 0.2)
    async with client.ws_connect(f"/ws?user={alice}") as ws:
        await slash(client, alice, channel, "/demo announce text:hi")
        limited = (await next_event(ws, "notice"))["notice"]
        assert limited["kind"] == "rate-limit"
        assert "You are being rate limited" in limited["detail"][0]
        fake_discord.channel_rate_limit = None
        headers = {"Authorization": f"Bot {fake_discord.token}"}
        url = f"{fake_discord.api_base}/channels/{channel}/messages"
        components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81}]}]
        async with (
            aiohttp.ClientSession(headers=headers) as http,
            http.post(url, json={"components": components}) as resp,
        ):
            assert resp.status == 400
        while (notice := (await next_event(ws, "notice"))["notice"])["kind"] != "rejected":
            pass
        assert notice["title"] == "Discord would refuse this: 400 Invalid Form Body"
        assert any("Must be 80 or fewer in length" in line for line in notice["detail"])
    fake_discord.errors.clear()


async def test_the_socket_sends_each_person_what_they_see(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, bob, _, channel = ids(world)
    async with (
        client.ws_connect(f"/ws?user={alice}") as for_alice,
        client.ws_connect(f"/ws?user={bob}") as for_bob,
    ):
        await slash(client, alice, channel, "/demo secret")
        await slash(client, alice, channel, "/demo panel")
        secret = (await next_event(for_alice, "message"))["message"]
        assert secret["ephemeral"] and "Only you can see this" in secret["html"]
        panel = (await next_event(for_bob, "message"))["message"]
        assert not panel["ephemeral"] and "Count is" in panel["html"]  # never the secret
        await slash(client, alice, channel, "/demo announce text:news")
        channels = (await next_event(for_bob, "channels"))["channels"]
        assert [c["name"] for c in channels] == ["uno", "discussion"]
        assert channels[1]["thread"] and channels[1]["parent"] == channel
    bad = await client.get("/ws", params={"user": "1"})
    assert bad.status == 400


async def test_pictures_are_served_from_this_machine(
    client: TestClient[Any, Any], world: PlaygroundWorld, bot: MinimalBot
) -> None:
    alice, _, _, channel = ids(world)
    await slash(client, alice, channel, "/demo card")
    [card] = await messages(client, alice, channel)
    [attachment] = world.fake.messages[int(card["id"])].attachments
    path = f"/attachments/{attachment.id}/card.png"
    assert f'<img src="{path}"' in card["html"]
    resp = await client.get(path)
    assert resp.status == 200 and resp.content_type == "image/png"
    assert await resp.read() == attachment.data
    assert (await client.get(f"/attachments/{attachment.id}/other.png")).status == 404
    assert (await client.get("/attachments/x/card.png")).status == 404


async def test_only_this_machines_page_may_ask(
    client: TestClient[Any, Any], world: PlaygroundWorld
) -> None:
    alice, _, _, channel = ids(world)
    resp = await client.get("/api/state", headers={"Host": "evil.example"})
    assert resp.status == 421  # a DNS-rebinding page cannot read or act
    resp = await client.get("/api/state", headers={"Host": "localhost:8765"})
    assert resp.status == 200
    resp = await client.post(
        "/api/slash",
        json={"user": alice, "channel": channel, "text": "/demo panel"},
        headers={"Origin": "http://evil.example"},
    )
    assert resp.status == 403
    assert world.fake.interactions == {}


async def test_opened_to_the_network_on_purpose(world: PlaygroundWorld) -> None:
    app = build_app(world, local_only=False)
    async with TestClient(TestServer(app)) as open_client:
        resp = await open_client.get("/api/state", headers={"Host": "192.0.2.7:8765"})
        assert resp.status == 200


async def test_history_pages_back(client: TestClient[Any, Any], world: PlaygroundWorld) -> None:
    alice, _, _, channel = ids(world)
    sent = [
        world.fake.store.store(world.channel, world.fake.bot_user, content=f"m{i}")
        for i in range(55)
    ]
    resp = await client.get("/api/messages", params={"user": alice, "channel": channel})
    page = await resp.json()
    assert page["more"] and [m["id"] for m in page["messages"]] == [str(m.id) for m in sent[5:]]
    params = {"user": alice, "channel": channel, "before": str(sent[5].id)}
    older = await (await client.get("/api/messages", params=params)).json()
    assert not older["more"] and [m["id"] for m in older["messages"]] == [
        str(m.id) for m in sent[:5]
    ]


def test_a_page_that_falls_behind_reloads_instead_of_queueing_more() -> None:
    page = Page(user_id=1)
    for i in range(QUEUE_SIZE + 3):
        page.push({"type": "message", "n": i})
    # The page reloads its channel, then applies what came after.
    queued = [page.queue.get_nowait() for _ in range(page.queue.qsize())]
    assert queued == [
        {"type": "resync"},
        {"type": "message", "n": QUEUE_SIZE + 1},
        {"type": "message", "n": QUEUE_SIZE + 2},
    ]
