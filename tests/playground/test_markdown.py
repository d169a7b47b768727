"""Discord markdown as the playground page shows it: structure, inline styles, mentions by
name, timestamps, and nothing a message says can become markup or a script."""

from __future__ import annotations

import pytest

from bot.playground.emoji import picture
from bot.playground.markdown import Markdown, relative

NOW = 1_700_000_000.0


class Names:
    def user_name(self, user_id: int) -> str | None:
        return {1: "Alice", 2: "Zoë <b>&"}.get(user_id)

    def channel_name(self, channel_id: int) -> str | None:
        return {5: "uno"}.get(channel_id)

    def role_name(self, role_id: int) -> str | None:
        return {9: "Mods"}.get(role_id)


def md(text: str) -> str:
    return Markdown(Names(), lambda: NOW).render(text)


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("# Big", "<h1>Big</h1>"),
        ("## 🎴 UNO · Classic", f"<h2>{picture('🎴')} UNO · Classic</h2>"),
        ("### Your hand", "<h3>Your hand</h3>"),
        ("#hashtag", "<p>#hashtag</p>"),
        ("-# small print", '<div class="subtext">small print</div>'),
        ("one\ntwo", "<p>one<br>two</p>"),
        ("one\n\ntwo", "<p>one</p><p>two</p>"),
        ("- a\n- b", "<ul><li>a</li><li>b</li></ul>"),
        ("1. Alice 👑\n2. Bob", f"<ol><li>Alice {picture('👑')}</li><li>Bob</li></ol>"),
        ("3. x\n4. y", '<ol start="3"><li>x</li><li>y</li></ol>'),
        ("- a\n  - b\n- c", "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"),
        ("> said\n> this\nafter", "<blockquote><p>said<br>this</p></blockquote><p>after</p>"),
        (">>> all\n# of it", "<blockquote><p>all</p><h1>of it</h1></blockquote>"),
        ("```py\nx = '<a>'\n```", "<pre><code>x = &#x27;&lt;a&gt;&#x27;</code></pre>"),
        ("```\n**not bold**\n```", "<pre><code>**not bold**</code></pre>"),
    ],
)
def test_blocks(text: str, html: str) -> None:
    assert md(text) == html


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("**bold**", "<strong>bold</strong>"),
        ("*it* and _it_", "<em>it</em> and <em>it</em>"),
        ("***both***", "<strong><em>both</em></strong>"),
        ("__under__ ~~gone~~", "<u>under</u> <s>gone</s>"),
        ("*a **b** c*", "<em>a <strong>b</strong> c</em>"),
        ("2 * 3 * 4 and snake_case_name", "2 * 3 * 4 and snake_case_name"),
        ("\\*not\\* \\(bot\\)", "*not* (bot)"),
        ("`**code**` ``a`b``", "<code>**code**</code> <code>a`b</code>"),
        ("||secret||", '<span class="spoiler" tabindex="0">secret</span>'),
        ("<:uno:123>", '<span class="emoji">:uno:</span>'),
    ],
)
def test_inline(text: str, html: str) -> None:
    assert md(text) == f"<p>{html}</p>"


def test_mentions_show_names_and_never_markup() -> None:
    html = md("<@1> <@!2> <@3> <@&9> <#5> <#6> @everyone")
    assert '<span class="mention" data-user="1">@Alice</span>' in html
    assert "@Zoë &lt;b&gt;&amp;" in html  # a name is text, never markup
    assert "@unknown-user" in html and "@Mods" in html
    assert '<a class="mention" href="#" data-channel="5">#uno</a>' in html
    assert '<span class="mention">#unknown</span>' in html
    assert '<span class="mention">@everyone</span>' in html


def test_command_mentions_fill_the_command_box() -> None:
    html = md("Start one with </uno new:123>.")
    assert '<a class="mention" href="#" data-command="uno new">/uno new</a>' in html


def test_links_only_for_http() -> None:
    html = md("[site](https://example.org/a) https://x.org/b. <https://y.org> javascript:alert(1)")
    assert (
        '<a href="https://example.org/a" target="_blank" rel="noopener noreferrer">site</a>'
    ) in html
    assert 'href="https://x.org/b"' in html and "</a>." in html  # the full stop stays text
    assert 'href="https://y.org"' in html
    assert 'href="javascript' not in html
    assert md("[x](javascript:alert(1))") == "<p>[x](javascript:alert(1))</p>"


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "**<b>bold</b>**",
        "[<i>x</i>](https://a.org/?q=\"'<>)",
        "`<code>`",
    ],
)
def test_nothing_becomes_markup(text: str) -> None:
    html = md(text)
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "<i>" not in html and 'onerror="' not in html


def test_timestamps() -> None:
    html = md(f"<t:{int(NOW) + 90}:R> <t:{int(NOW)}:D> <t:{int(NOW)}>")
    assert f'data-ts="{int(NOW) + 90}" data-style="R">in 2 minutes</time>' in html
    assert 'data-style="D">14 November 2023</time>' in html
    assert 'data-style="f">14 November 2023 22:13</time>' in html
    assert md("<t:99999999999999:R>") == "<p>&lt;t:99999999999999:R&gt;</p>"


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "in 0 seconds"),
        (45, "in 45 seconds"),
        (-60, "1 minute ago"),
        (3 * 3600, "in 3 hours"),
        (-2 * 86400, "2 days ago"),
        (400 * 86400, "in 1 year"),
    ],
)
def test_relative(seconds: float, words: str) -> None:
    assert relative(seconds) == words
