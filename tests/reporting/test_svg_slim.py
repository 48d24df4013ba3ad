"""clean_svg's rewrite for WeasyPrint: same values, fewer things to parse."""

import xml.etree.ElementTree as ET

from cdplot.reporting.figures import clean_svg

NS = "{http://www.w3.org/2000/svg}"

MPL_LIKE = """<?xml version="1.0" encoding="utf-8" standalone="no"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="10pt" height="10pt">
 <defs>
  <style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style>
 </defs>
 <g id="a">
  <path id="p" d="M 0 0 L 1 1" style="fill: none; stroke: #1a1a1a; stroke-linejoin: miter"/>
  <g id="inner" style="stroke-linecap: square">
   <path d="M 0 0 L 2 2" style="stroke: #000000"/>
  </g>
  <text style="font-size: 7.5px; font-family: 'Lato', 'DejaVu Sans'; text-anchor: end"
        x="1" y="2">a  b </text>
  <use xlink:href="#p" x="1" y="1" style="stroke-linejoin: bevel"/>
 </g>
</svg>
"""


def _by_id(root):
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def test_style_attributes_become_presentation_attributes():
    root = ET.fromstring(clean_svg(MPL_LIKE, "m1"))
    assert not [e for e in root.iter() if e.get("style") is not None]
    assert not root.findall(f".//{NS}style")
    # the * rule's values sit on the root, where nothing else sets them
    assert root.get("stroke-linejoin") == "round"
    assert root.get("stroke-linecap") == "butt"
    ids = _by_id(root)
    path = ids["m1-p"]
    assert (path.get("fill"), path.get("stroke"), path.get("stroke-linejoin")) == (
        "none",
        "#1a1a1a",
        "miter",
    )
    # the * rule set butt on the inner path, not the group's square: it must not inherit square
    inner = ids["m1-inner"]
    assert inner.get("stroke-linecap") == "square"
    assert inner.find(f"{NS}path").get("stroke-linecap") == "butt"


def test_text_and_its_whitespace_are_kept():
    svg = clean_svg(MPL_LIKE, "m1")
    root = ET.fromstring(svg)
    text = root.find(f".//{NS}text")
    assert text.text == "a  b "
    assert text.get("font-family") == "'Lato', 'DejaVu Sans'"
    # indentation between elements is gone
    assert ">\n" not in svg


def test_a_real_stylesheet_keeps_the_style_attributes():
    svg = MPL_LIKE.replace("*{stroke-linejoin", ".x{stroke-linejoin")
    root = ET.fromstring(clean_svg(svg, "m1"))
    assert root.findall(f".//{NS}style")
    assert _by_id(root)["m1-p"].get("style") is not None


def test_unusual_declarations_keep_their_style_attribute():
    svg = MPL_LIKE.replace("stroke: #000000", "stroke: #000000 !important")
    root = ET.fromstring(clean_svg(svg, "m1"))
    kept = [e for e in root.iter() if e.get("style")]
    assert len(kept) == 1
    assert "!important" in kept[0].get("style")
    # the * values still reach it, below its own style attribute
    assert kept[0].get("stroke-linejoin") == "round"
