"""The report templates: named blocks, user overrides in the sandbox, strictness."""

import pytest

import cdplot
from cdplot._resources import templates_dir
from cdplot.errors import CdplotError
from cdplot.reporting import render_html, report
from cdplot.reporting._templating import TEMPLATE_NAMES, make_environment


@pytest.fixture(scope="module")
def demsar():
    return cdplot.compare(cdplot.load_example("demsar2006"))


def test_every_template_is_shipped_and_nothing_else():
    shipped = {p.name for p in templates_dir().glob("*.j2")}
    assert set(TEMPLATE_NAMES) | {"notebook.html.j2"} == shipped
    assert (templates_dir() / "report.css").is_file()


@pytest.mark.parametrize("name", sorted(TEMPLATE_NAMES))
def test_partials_define_their_named_blocks(name):
    template = make_environment().get_template(name)
    assert set(TEMPLATE_NAMES[name]) <= set(template.blocks)


def test_autoescape_and_strict_undefined():
    env = make_environment()
    assert env.autoescape("base.html.j2") is True
    assert env.autoescape("report.css") is False
    from jinja2 import StrictUndefined

    assert env.undefined is StrictUndefined


def test_user_templates_run_in_the_sandbox(tmp_path):
    from jinja2.sandbox import SandboxedEnvironment

    assert isinstance(make_environment(tmp_path), SandboxedEnvironment)
    assert not isinstance(make_environment(), SandboxedEnvironment)


def test_override_one_block_by_extending_the_bundled_partial(tmp_path, demsar):
    (tmp_path / "omnibus.html.j2").write_text(
        '{% extends "cdplot/omnibus.html.j2" %}'
        '{% block omnibus %}<p class="mine">Omnibus for {{ section.heading }}: '
        "{{ section.omnibus_sentence }}</p>{% endblock %}",
        encoding="utf-8",
    )
    html = render_html(demsar, template_dir=tmp_path, date="2024-01-01")
    assert '<p class="mine">Omnibus for AUC: With 4 methods' in html
    # the bundled omnibus table is gone, the rest of the report is still there
    assert 'id="metric-1-omnibus"' not in html
    assert 'id="metric-1-posthoc"' in html
    assert "<h1>" in html


def test_empty_two_methods_block_adds_nothing(demsar):
    html = render_html(demsar, date="2024-01-01")
    assert "two_methods" not in html
    assert "placeholder" not in html.lower()


def test_user_template_cannot_reach_python_internals(tmp_path, demsar):
    (tmp_path / "title.html.j2").write_text(
        "{{ ''.__class__.__mro__[1].__subclasses__() }}", encoding="utf-8"
    )
    with pytest.raises(CdplotError, match="title.html.j2|SecurityError|unsafe"):
        render_html(demsar, template_dir=tmp_path)


def test_undefined_variable_is_a_one_line_error(tmp_path, demsar):
    (tmp_path / "summary.html.j2").write_text("{{ no_such_value }}", encoding="utf-8")
    with pytest.raises(CdplotError) as info:
        render_html(demsar, template_dir=tmp_path)
    message = str(info.value)
    assert "no_such_value" in message
    assert "\n" not in message
    assert str(tmp_path) in message


def test_syntax_error_names_template_and_line(tmp_path, demsar):
    (tmp_path / "footer.html.j2").write_text("ok\n{% if %}\n", encoding="utf-8")
    with pytest.raises(CdplotError, match=r"footer\.html\.j2 line 2"):
        render_html(demsar, template_dir=tmp_path)


def test_missing_template_dir(demsar, tmp_path):
    with pytest.raises(CdplotError, match="is not a folder"):
        render_html(demsar, template_dir=tmp_path / "nope")


def test_a_report_writes_nothing_into_the_users_cache(tmp_path, monkeypatch, demsar):
    # the templates are compiled in memory, once per process: no file under ~/.cache
    from cdplot.reporting import _templating as templating

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    templating._bundled_environment.cache_clear()
    try:
        out = report(demsar, tmp_path / "r.html", date="2024-01-01")
    finally:
        templating._bundled_environment.cache_clear()
    assert out.is_file()
    assert list(home.iterdir()) == []
    assert templating.make_environment().bytecode_cache is None
