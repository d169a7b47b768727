"""What the page shows for each kind of component, message and modal: Discord's layout kept,
pictures served from this machine only, links only where they are safe."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.playground.emoji import picture
from bot.playground.render import PageRenderer
from bot.playground.world import PlaygroundWorld, build_world
from fake_discord import FakeDiscord, FakeInteraction, FakeModal
from fake_discord.constants import FLAG_IS_COMPONENTS_V2, FLAG_LOADING, JSON


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> PlaygroundWorld:
    return await build_world(fake_discord, users=2)


@pytest.fixture
def renderer(world: PlaygroundWorld) -> PageRenderer:
    return PageRenderer(world)


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(out, "PNG")
    return out.getvalue()


def test_container_text_separator_and_accent(renderer: PageRenderer) -> None:
    html = renderer.component(
        {
            "type": 17,
            "accent_color": 0x2ECC71,
            "components": [
                {"type": 10, "content": "## Title\n-# small"},
                {"type": 14, "divider": False, "spacing": 2},
                {"type": 14},
            ],
        }
    )
    assert html == (
        '<div class="container" data-accent="#2ecc71"><div class="text"><h2>Title</h2>'
        '<div class="subtext">small</div></div><div class="separator spacing-2"></div>'
        '<hr class="separator spacing-1"></div>'
    )
    plain = renderer.component({"type": 17, "spoiler": True, "components": []})
    assert plain == '<div class="container spoiler-box"></div>'


def test_buttons(renderer: PageRenderer) -> None:
    row = renderer.component(
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 3, "label": "Go", "custom_id": "a:1", "emoji": {"name": "🟩"}},
                {"type": 2, "style": 4, "label": "<b>", "custom_id": "a:2", "disabled": True},
                {"type": 2, "style": 2, "custom_id": "a:3", "emoji": {"name": "x", "id": "9"}},
                {"type": 2, "style": 5, "label": "Docs", "url": "https://example.org"},
                {
                    "type": 2,
                    "style": 5,
                    "label": "Lobby",
                    "url": "https://discord.com/channels/1/22/333",
                },
                {"type": 2, "style": 5, "label": "Bad", "url": "javascript:alert(1)"},
                {"type": 2, "style": 6, "sku_id": "1"},
            ],
        }
    )
    assert (
        '<button type="button" class="button success" data-action="click" data-custom-id="a:1">'
        f'<span class="emoji">{picture("🟩")}</span><span class="label">Go</span></button>'
    ) in row
    assert 'data-custom-id="a:2" disabled><span class="label">&lt;b&gt;</span>' in row
    assert '<span class="emoji">:x:</span></button>' in row
    assert '<a class="button link" href="https://example.org" target="_blank"' in row
    # A Discord link opens the channel and message on the page, never discord.com.
    assert '<a class="button link" href="#" data-channel="22" data-message="333">' in row
    assert "discord.com" not in row
    assert "javascript" not in row and '<span class="button link disabled">' in row
    assert '<span class="button premium disabled">' in row


def test_selects(renderer: PageRenderer, world: PlaygroundWorld) -> None:
    single = renderer.component(
        {
            "type": 3,
            "custom_id": "pick",
            "placeholder": "Choose",
            "options": [
                {"label": "Red", "value": "r", "emoji": {"name": "🟥"}, "description": "warm"},
                {"label": "Blue", "value": "b", "default": True},
            ],
        }
    )
    assert single.startswith('<select class="select" data-action="select" data-custom-id="pick">')
    assert '<option value="" disabled>Choose</option>' in single
    assert '<option value="r">Red — warm</option>' in single  # no picture fits in an option
    assert '<option value="b" selected>Blue</option>' in single
    many = renderer.component(
        {
            "type": 3,
            "custom_id": "many",
            "min_values": 1,
            "max_values": 2,
            "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}],
        }
    )
    assert 'data-min="1" data-max="2"' in many and 'type="checkbox" value="b"' in many
    assert 'data-action="select-many"' in many
    people = renderer.component({"type": 5, "custom_id": "who"})
    assert f'<option value="{world.users[1].id}">@Bob</option>' in people
    rooms = renderer.component({"type": 8, "custom_id": "where"})
    assert f'<option value="{world.channel.id}">#uno</option>' in rooms


def test_media_is_local_or_a_link(renderer: PageRenderer, world: PlaygroundWorld) -> None:
    base = world.fake.base_url
    gallery = renderer.component(
        {
            "type": 12,
            "items": [
                {
                    "media": {
                        "url": f"{base}/attachments/7/table.png",
                        "width": 1000,
                        "height": 640,
                    },
                    "description": "the table",
                },
                {"media": {"url": "https://cdn.example/x.png"}, "spoiler": True},
            ],
        }
    )
    # At its size: the page does not jump as pictures load.
    assert (
        '<img src="/attachments/7/table.png" alt="the table" width="1000" height="640" '
        'loading="lazy">'
    ) in gallery
    assert '<img src="https://' not in gallery
    assert 'class="external-media spoiler-box" href="https://cdn.example/x.png"' in gallery
    assert 'class="gallery gallery-2"' in gallery
    section = renderer.component(
        {
            "type": 9,
            "components": [{"type": 10, "content": "text"}],
            "accessory": {"type": 11, "media": {"url": f"{base}/attachments/8/t.png"}},
        }
    )
    assert '<div class="accessory"><a class="media thumbnail"' in section
    file = renderer.component({"type": 13, "file": {"url": f"{base}/attachments/9/rules.txt"}})
    assert file == '<a class="file" href="/attachments/9/rules.txt" download>↓ rules.txt</a>'
    assert "type 99" in renderer.component({"type": 99})


async def test_messages(renderer: PageRenderer, world: PlaygroundWorld) -> None:
    fake = world.fake
    store = fake.store
    alice = world.users[0]
    attachments = store.make_attachments(None, [("pic.png", png()), ("notes.txt", b"hi")], [])
    assert attachments is not None
    classic = store.store(
        world.channel,
        fake.bot_user,
        content=f"Hi <@{alice.id}>",
        embeds=[
            {
                "title": "Scores",
                "description": "**Alice** leads",
                "color": 0xFF0000,
                "fields": [{"name": "Alice", "value": "35", "inline": True}],
                "footer": {"text": "round 1"},
            }
        ],
        attachments=attachments,
    )
    view = renderer.message(classic)
    assert view["author"] == "UNO Bot" and view["bot"] and not view["ephemeral"]
    html = view["html"]
    assert '<div class="content"><p>Hi <span class="mention"' in html and "@Alice" in html
    assert '<div class="embed" data-accent="#ff0000"><div class="embed-title">Scores</div>' in html
    assert '<div class="embed-field inline">' in html and "round 1" in html
    assert f'<img src="/attachments/{attachments[0].id}/pic.png"' in html
    assert f'href="/attachments/{attachments[1].id}/notes.txt" download' in html

    private = store.store(world.channel, fake.bot_user, flags=FLAG_LOADING, ephemeral_to=alice.id)
    view = renderer.message(private)
    assert view["ephemeral"] and view["loading"] and view["html"] == ""
    v2 = store.store(
        world.channel,
        fake.bot_user,
        components=[{"type": 10, "content": "x"}],
        attachments=store.make_attachments(None, [("unused.png", png())], []),
        flags=FLAG_IS_COMPONENTS_V2,
    )
    assert "unused.png" not in renderer.message(v2)["html"]  # V2 shows its components only
    await store.delete(v2, "channel")
    assert renderer.message(v2) == {
        "id": str(v2.id),
        "channel": str(world.channel.id),
        "deleted": True,
    }


def test_modal(renderer: PageRenderer, world: PlaygroundWorld) -> None:
    components: list[JSON] = [
        {"type": 10, "content": "Say **something**"},
        {
            "type": 18,
            "label": "House rule",
            "description": "One line",
            "component": {
                "type": 4,
                "custom_id": "rule",
                "style": 2,
                "min_length": 3,
                "max_length": 200,
                "placeholder": "<x>",
            },
        },
        {
            "type": 1,
            "components": [
                {"type": 4, "custom_id": "nick", "label": "Nick", "required": False, "value": "Al"}
            ],
        },
        {
            "type": 18,
            "label": "Colour",
            "component": {
                "type": 3,
                "custom_id": "colour",
                "max_values": 2,
                "options": [{"label": "Red", "value": "r"}],
            },
        },
    ]
    itx = FakeInteraction(1, "t", 2, world.users[0], world.channel.id, None, {}, 0.0, world.fake)
    itx.modal = FakeModal("m", "Your <rule>", components, itx)
    modal = renderer.modal(itx)
    assert modal["interaction"] == "1" and modal["title"] == "Your <rule>"
    html = modal["html"]
    assert "<strong>something</strong>" in html
    assert '<span class="field-label">House rule<span class="required">*</span></span>' in html
    assert '<span class="field-hint">One line</span>' in html
    assert (
        '<textarea name="rule" minlength="3" maxlength="200" placeholder="&lt;x&gt;" required '
        "rows=4></textarea>"
    ) in html
    assert (
        '<input type="text" name="nick" minlength="0" maxlength="4000" placeholder="" value="Al">'
        in html
    )
    assert '<select name="colour" multiple><option value="r">Red</option></select>' in html
