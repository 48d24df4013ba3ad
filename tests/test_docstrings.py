"""Every public function documents exactly the parameters it takes (numpydoc)."""

import importlib
import inspect
import pathlib
import re

import pytest

import cdplot

# every layer's package: its __all__ lists public functions (the statistics one at a time
# live in cdplot.stats, not at the top level)
SUBPACKAGES = ("io", "stats", "plot", "reporting")


def _public_functions():
    seen = {}
    for name in sorted(cdplot.__all__):
        obj = getattr(cdplot, name)
        if inspect.isfunction(obj):
            seen[obj] = f"cdplot.{name}"
    for sub in SUBPACKAGES:
        package = importlib.import_module(f"cdplot.{sub}")
        for name in getattr(package, "__all__", ()):
            obj = getattr(package, name)
            if inspect.isfunction(obj):
                seen.setdefault(obj, f"cdplot.{sub}.{name}")
    for obj, name in sorted(seen.items(), key=lambda item: item[1]):
        yield pytest.param(obj, id=name)


def _documented(doc: str) -> list[str]:
    lines = inspect.cleandoc(doc).splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Parameters") + 2
    except StopIteration:
        return []
    names = []
    for line in lines[start:]:
        if (
            line
            and not line.startswith(" ")
            and re.match(
                r"^-{3,}$",
                lines[lines.index(line) + 1] if lines.index(line) + 1 < len(lines) else "",
            )
        ):
            break
        if not line or line.startswith(" "):
            continue
        if re.match(r"^[A-Z][a-z]+$", line.strip()):
            break
        head = line.split(" : ")[0]
        names += [n.strip().lstrip("*") for n in head.split(",")]
    return names


@pytest.mark.parametrize("func", list(_public_functions()))
def test_parameters_section_matches_signature(func):
    doc = func.__doc__
    assert doc, f"{func.__name__} has no docstring"
    # numpydoc documents *args and **kwargs too (as "*groups")
    params = [p.name for p in inspect.signature(func).parameters.values()]
    if not params:
        return
    documented = _documented(doc)
    # order may follow shared docstring fragments; the sets must agree
    assert sorted(documented) == sorted(params), (
        f"{func.__module__}.{func.__name__}: documented {documented}, signature {params}"
    )


def _release(text):
    return tuple(int(part) for part in re.match(r"\d+(?:\.\d+)*", text).group(0).split("."))


def test_no_docstring_dates_a_change_after_the_package_version():
    # issue 25 item 7: "added in 0.2.0" in a 0.1.0 package; in the first release nothing
    # is added or changed, so the directives start with the next version
    package = pathlib.Path(cdplot.__file__).parent
    current = _release(cdplot.__version__)
    found = [
        f"{path.relative_to(package)}:{number}: {line.strip()}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (m := re.search(r"\.\. version(?:added|changed|deprecated):: *(\S+)", line))
        and _release(m.group(1)) > current
    ]
    assert found == []


# --- shared parameter entries (cdplot/_docstrings.py) ---------------------------------------

PACKAGE = pathlib.Path(cdplot.__file__).parent


def _public_objects():
    """Every public function and class of the flat namespaces, with its dotted name."""
    seen = {}
    for module, names in [("cdplot", cdplot.__all__)] + [
        (f"cdplot.{sub}", importlib.import_module(f"cdplot.{sub}").__all__) for sub in SUBPACKAGES
    ]:
        package = importlib.import_module(module)
        for name in names:
            obj = getattr(package, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                seen.setdefault(obj, f"{module}.{name}")
    return sorted(seen.items(), key=lambda item: item[1])


def _entries(doc: str) -> dict[str, str]:
    """The Parameters section of a numpydoc docstring: header line -> description."""
    lines = inspect.cleandoc(doc).splitlines()
    entries, header = {}, None
    in_section = False
    for number, line in enumerate(lines):
        following = lines[number + 1] if number + 1 < len(lines) else ""
        if line and not line.startswith(" ") and re.fullmatch(r"-{3,}", following):
            in_section = line.strip() == "Parameters"
            header = None
            continue
        if not in_section or re.fullmatch(r"-{3,}", line):
            continue
        if line and not line.startswith(" "):
            header = line
            entries[header] = []
        elif header is not None:
            entries[header].append(line.strip())
    return {head: "\n".join(body).strip() for head, body in entries.items()}


def _split(entry: str) -> tuple[str, str]:
    header, _, body = entry.partition("\n")
    return header, "\n".join(line.strip() for line in body.splitlines())


# The core options must read alike wherever a public function takes them.  Where the same
# name and type mean something else, the function keeps its own words, for the reason given.
STRICT = (
    "scores",
    "scores_array",
    "higher_is_better",
    "higher_is_better_array",
    "alpha",
    "test",
    "correction",
    "control",
    "nan_policy",
    "metric",
    "methods_datasets",
    "pair_names",
    "rng",
)
OWN_WORDS = {
    ("cdplot.compare_auto", "control"): "the rank path's Bonferroni-Dunn, unused by Tukey's HSD",
    ("cdplot.compare_ranks", "control"): "its result has no all_pairs_tested field",
    ("cdplot.compare_ranks", "correction"): "only the rank z-tests take one",
    ("cdplot.data_table", "control"): "the method of the W/T/L row",
    ("cdplot.compare_pair", "methods"): "the two methods to compare, picked from the data",
    ("cdplot.simulate_power", "higher_is_better"): "also the direction of shift",
    ("cdplot.simulate_power", "metric"): "the metric to resample",
    ("cdplot.io.fold_scores", "metric"): "the rows of a metric column",
    ("cdplot.stats.effect_sizes", "alpha"): "the level of the confidence intervals",
}


def test_shared_entries_are_spliced_not_rewritten():
    from cdplot._docstrings import PARAMS

    shared = {}
    for key in STRICT:
        header, body = _split(PARAMS[key])
        shared.setdefault(header, []).append(body)
    drifted = []
    for obj, name in _public_objects():
        for header, body in _entries(obj.__doc__ or "").items():
            param = header.split(" : ")[0]
            # a slot may be followed by words particular to the function
            if (
                header in shared
                and (name, param) not in OWN_WORDS
                and not any(body.startswith(text) for text in shared[header])
            ):
                drifted.append(f"{name}: {param}")
    assert drifted == [], "write %(name)s slots (cdplot/_docstrings.py) instead"


def test_no_shared_entry_is_copied_by_hand():
    # a verbatim copy of a shared entry in a source file would drift apart from it
    from cdplot._docstrings import PARAMS

    sources = {
        path: [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "_docstrings.py"
    }
    copies = []
    for key, entry in PARAMS.items():
        wanted = [line.strip() for line in entry.splitlines()]
        for path, lines in sources.items():
            copies += [
                f"{path.relative_to(PACKAGE)}:{number + 1}: {key}"
                for number in range(len(lines) - len(wanted) + 1)
                if lines[number : number + len(wanted)] == wanted
            ]
    assert copies == []


def test_every_shared_entry_is_used():
    from cdplot._docstrings import PARAMS

    text = "".join(path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py"))
    assert [key for key in PARAMS if f"%({key})s" not in text] == []


def test_no_slot_is_left_unspliced():
    left = [name for obj, name in _public_objects() if "%(" in (obj.__doc__ or "")]
    assert left == []


def test_splice_indents_the_entry_as_its_slot():
    from cdplot._docstrings import PARAMS, splice

    doc = "Summary.\n\n    Parameters\n    ----------\n    %(alpha)s\n        More.\n    x : int\n"
    header, body = PARAMS["alpha"].split("\n", 1)
    assert splice(doc) == (
        f"Summary.\n\n    Parameters\n    ----------\n    {header}\n    {body}\n        More.\n"
        "    x : int\n"
    )
    # only whole-line slots: a % in prose is left alone, and -OO's None stays None
    assert splice("95%(alpha)s of it") == "95%(alpha)s of it"
    assert splice(None) is None
    with pytest.raises(KeyError):
        splice("    %(no_such_entry)s\n")


def test_help_of_compare_is_numpydoc_indented():
    doc = inspect.getdoc(cdplot.compare)
    lines = doc.splitlines()
    start = lines.index("Parameters") + 2
    end = lines.index("Returns")
    for line in lines[start:end]:
        # headers at the margin, descriptions four spaces in, nothing else
        assert line == "" or not line.startswith(" ") or re.match(r"^    \S", line), line
