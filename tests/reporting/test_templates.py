"""The report templates: named blocks, user overrides in the sandbox, strictness."""

import stat
from pathlib import Path

import pytest

import cdplot
from cdplot._resources import templates_dir
from cdplot.errors import CdplotError
from cdplot.reporting import render_html
from cdplot.reporting.templating import TEMPLATE_NAMES, make_environment


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


# ---------------------------------------------------------------------------
# the bytecode cache of the bundled templates (templating._bytecode_cache)
# ---------------------------------------------------------------------------
@pytest.fixture
def fresh_environment(monkeypatch):
    """The bundled environment made again, under the cache settings a test gives."""
    from cdplot.reporting import templating

    templating._bundled_environment.cache_clear()
    yield templating
    templating._bundled_environment.cache_clear()


def test_cache_goes_under_xdg_cache_home_private(tmp_path, monkeypatch, fresh_environment):
    monkeypatch.delenv("CDPLOT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fresh_environment.preload_templates()
    folder = Path(fresh_environment._bundled_environment().bytecode_cache.directory)
    assert folder.parent == tmp_path / "cache" / "cdplot"
    # every folder it made is the user's alone (XDG base directory specification: 0700)
    for made in (folder, folder.parent, folder.parent.parent):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700
    assert len(list(folder.glob("*.cache"))) == len(TEMPLATE_NAMES)


def test_relative_xdg_cache_home_is_ignored(tmp_path, monkeypatch):
    from cdplot.reporting.templating import _cache_root

    monkeypatch.delenv("CDPLOT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _cache_root() == tmp_path / ".cache" / "cdplot"


def test_cached_code_renders_the_same_report(tmp_path, monkeypatch, fresh_environment, demsar):
    monkeypatch.setenv("CDPLOT_CACHE_DIR", str(tmp_path))
    cold = render_html(demsar, date="2024-01-01")
    fresh_environment._bundled_environment.cache_clear()
    import jinja2

    # a second process (here: a new environment) compiles nothing: it loads the cached code
    def no_compile(*args, **kwargs):
        raise AssertionError("compiled a template the cache holds")

    monkeypatch.setattr(jinja2.Environment, "compile", no_compile)
    assert render_html(demsar, date="2024-01-01") == cold


def test_changed_template_is_compiled_again(tmp_path, monkeypatch):
    # Jinja2 keeps a checksum of the source in each cache file: an edited template (same
    # name, same path) never runs the old code
    import jinja2

    from cdplot.reporting.templating import _bytecode_cache

    monkeypatch.setenv("CDPLOT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "t.html.j2").write_text("first {{ x }}", encoding="utf-8")

    def render():
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)))
        env.bytecode_cache = _bytecode_cache(env)
        assert env.bytecode_cache is not None
        return env.get_template("t.html.j2").render(x=1)

    assert render() == "first 1"
    (tmp_path / "t.html.j2").write_text("second {{ x }}", encoding="utf-8")
    assert render() == "second 1"


def test_other_environment_options_use_another_folder(tmp_path, monkeypatch):
    import jinja2

    from cdplot.reporting.templating import _bytecode_cache

    monkeypatch.setenv("CDPLOT_CACHE_DIR", str(tmp_path))
    loader = jinja2.FileSystemLoader(str(tmp_path))
    plain = _bytecode_cache(jinja2.Environment(loader=loader))
    trimmed = _bytecode_cache(jinja2.Environment(loader=loader, trim_blocks=True))
    assert plain.directory != trimmed.directory


def test_unusable_cache_folder_is_skipped_silently(
    tmp_path, monkeypatch, fresh_environment, demsar
):
    # a folder others may write to holds no code this process runs; a path that cannot be a
    # folder (under a file) means no cache: the report is written all the same
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    expected = None
    for where in (shared, blocked / "cache"):
        monkeypatch.setenv("CDPLOT_CACHE_DIR", str(where))
        fresh_environment._bundled_environment.cache_clear()
        html = render_html(demsar, date="2024-01-01")
        assert fresh_environment._bundled_environment().bytecode_cache is None
        assert expected is None or html == expected
        expected = html
    assert list(shared.iterdir()) == []


def test_damaged_cache_file_is_compiled_again(tmp_path, monkeypatch, fresh_environment, demsar):
    monkeypatch.setenv("CDPLOT_CACHE_DIR", str(tmp_path))
    expected = render_html(demsar, date="2024-01-01")
    for f in tmp_path.rglob("*.cache"):
        f.write_bytes(f.read_bytes()[:40])
    fresh_environment._bundled_environment.cache_clear()
    assert render_html(demsar, date="2024-01-01") == expected


def test_user_templates_compile_without_the_cache(tmp_path, monkeypatch):
    # a user's templates run in the sandbox, in a bounded child: none of their code is cached
    monkeypatch.setenv("CDPLOT_CACHE_DIR", str(tmp_path / "cache"))
    assert make_environment(tmp_path).bytecode_cache is None
