"""Draw the web app's icons (src/chkobba/web/static/icons/): an SVG, and PNGs of it at
the sizes a phone asks for, drawn with Pillow from the same shapes (a white card with a
red diamond, a card behind it, on the table's green felt).

Run it again after changing the shapes: ``python scripts/make_icons.py``.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "src" / "chkobba" / "web" / "static" / "icons"
FELT, FELT_DARK, PAPER, RED, GOLD = "#1f6f4a", "#17573a", "#fbfaf6", "#c8553d", "#e0b04a"
SIZES = (192, 512)
"""The PNG sizes (the manifest's usual pair); the 512 one is also the maskable icon."""

# The shapes, on a 100 × 100 grid: (x, y, width, height, corner radius) of each card.
BACK_CARD = (24.0, 20.0, 40.0, 58.0, 5.0)
FRONT_CARD = (38.0, 26.0, 40.0, 58.0, 5.0)
DIAMOND = ((58.0, 39.0), (69.0, 55.0), (58.0, 71.0), (47.0, 55.0))


def svg() -> str:
    """The icon as SVG text."""

    def rect(box: tuple[float, ...], fill: str, stroke: str) -> str:
        x, y, w, h, r = box
        return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="2"/>')

    points = " ".join(f"{x},{y}" for x, y in DIAMOND)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{FELT}"/>'
        + rect(BACK_CARD, GOLD, FELT_DARK)
        + rect(FRONT_CARD, PAPER, FELT_DARK)
        + f'<polygon points="{points}" fill="{RED}"/></svg>\n'
    )


def png(size: int) -> Image.Image:
    """The icon drawn at ``size`` pixels (drawn 4 times larger, then scaled down: smooth)."""
    big = size * 4
    k = big / 100
    im = Image.new("RGB", (big, big), FELT)
    d = ImageDraw.Draw(im)
    for box, fill in ((BACK_CARD, GOLD), (FRONT_CARD, PAPER)):
        x, y, w, h, r = box
        d.rounded_rectangle((x * k, y * k, (x + w) * k, (y + h) * k), radius=r * k,
                            fill=fill, outline=FELT_DARK, width=round(2 * k))
    d.polygon([(x * k, y * k) for x, y in DIAMOND], fill=RED)
    return im.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    """Write icon.svg and icon-SIZE.png."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(svg(), encoding="utf-8")
    for size in SIZES:
        png(size).save(OUT / f"icon-{size}.png", optimize=True)
        print(f"wrote {OUT / f'icon-{size}.png'}")


if __name__ == "__main__":
    main()
