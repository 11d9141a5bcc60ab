"""The filesystem world: the cloud drive of one signed-in user, about five years of it.

`build_world` writes a home with realistic folders and a few hundred files (world 0 in brackets
in the README): documents (finance, taxes, work notes, personal papers, recipes, travel plans),
photo albums and a camera roll, two or three code projects, downloads with installers,
duplicates and zip archives, music, large videos that fill most of the 15 GB plan, files
colleagues shared with the user, a Personal Vault of identity documents, and a trash holding
a few recently deleted items. It also writes earlier versions of edited text files, share
links (active, expired, revoked), tags, favorites and an activity log that agrees with the
files' times. Everything random comes from `w.rng` and `w.fake`.

This module also holds the vocabulary the tools share with the world (fixed folders, MIME types).
"""

from __future__ import annotations

import hashlib
import string
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.values import iso

from . import content as c

ROOT = "/"
VAULT = "/Personal Vault"
SHARED = "/Shared with me"
TRASH_DAYS = 30
VAULT_OPEN_SHARE = 0.3  # worlds whose Personal Vault the user unlocked a few minutes before the epoch
PLAN = ("Standard 15 GB", 15_000_000_000)

MIME_TYPES = {
    "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "json": "application/json",
    "py": "text/x-python", "js": "text/javascript", "html": "text/html", "css": "text/css",
    "yaml": "application/yaml", "yml": "application/yaml", "toml": "application/toml", "xml": "application/xml",
    "m3u": "audio/x-mpegurl", "log": "text/plain", "ics": "text/calendar", "sh": "text/x-shellscript",
    "gitignore": "text/plain", "ts": "text/typescript",
    "pdf": "application/pdf", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "heic": "image/heic",
    "gif": "image/gif", "mp4": "video/mp4", "mov": "video/quicktime", "mp3": "audio/mpeg", "m4a": "audio/mp4",
    "zip": "application/zip", "dmg": "application/x-apple-diskimage", "pkg": "application/octet-stream",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

EVENTS = ("Beach weekend", "Birthday party", "Hiking trip", "Holidays", "Wedding", "Ski weekend", "Road trip",
          "Graduation", "Camping", "Thanksgiving", "Concert", "Garden")
TRIPS = (("Lisbon", "Portugal", "Memmo Alfama Hotel"), ("Kyoto", "Japan", "Hotel Kanra Kyoto"),
         ("Barcelona", "Spain", "Hotel Casa Fuster"), ("Mexico City", "Mexico", "Condesa DF"),
         ("Reykjavik", "Iceland", "Hotel Borg"), ("Rome", "Italy", "Hotel Artemide"),
         ("Vancouver", "Canada", "Fairmont Pacific Rim"), ("Amsterdam", "Netherlands", "Hotel V Nesplein"))
VIDEOS = ("Wedding ceremony.mov", "Kids soccer final.mp4", "Drone flight over the lake.mp4", "Birthday party 2025.mp4",
          "Graduation speech.mov", "Concert clip.mov", "Family reunion 2025.mp4", "Time-lapse sunset.mp4")
INSTALLERS = (("Zoom.pkg", 90, 140), ("Firefox 124.0.dmg", 120, 160), ("Docker Desktop.dmg", 500, 700),
              ("VLC-3.0.20.dmg", 45, 60), ("Slack-4.37.dmg", 170, 220), ("Postman-10.24.dmg", 150, 200))
ARTISTS = (("The Paper Kites", "Twelvefour", ("Electric Indigo", "Deep Burn Blue", "Woke Up From A Dream")),
           ("Khruangbin", "Mordechai", ("Time (You and I)", "Pelota", "So We Won't Forget", "First Class")),
           ("Phoebe Bridgers", "Punisher", ("Kyoto", "Garden Song", "Moon Song", "I Know The End")),
           ("Bonobo", "Fragments", ("Rosewood", "Otomo", "Shadows", "Tides")),
           ("Nils Frahm", "All Melody", ("Sunson", "My Friend the Forest", "Human Range")))
WORK_DOCS = (("Project proposal - {p}.docx", 30, 400), ("Quarterly report Q4 2025.xlsx", 20, 300),
             ("All-hands slides.pptx", 2000, 12000), ("Architecture overview.pdf", 300, 2500))
PROJECT_NAMES = ("Atlas", "Phoenix", "Helios", "Orion", "Nimbus", "Falcon", "Aurora", "Polaris")


def _clock(day: date, rng: Any, early: int = 8, late: int = 22) -> datetime:
    return datetime.combine(day, time(rng.randint(early, late - 1), rng.randint(0, 59), rng.randint(0, 59)))


class Drive:
    """The rows of a drive under construction; paths are virtual, parents come first."""

    def __init__(self, w: WorldGen, owner: str, since: datetime) -> None:
        self.w = w
        self.rng = w.rng
        self.owner = owner
        self.nodes: list[dict[str, Any]] = []
        self.by_path: dict[str, dict[str, Any]] = {}
        self._add(ROOT, "", None, "folder", None, 0, since, since)

    def _add(self, path: str, name: str, parent: int | None, kind: str, content: str | None, size: int,
             created: datetime, modified: datetime, *, owner: str | None = None, read_only: int = 0,
             digest: str | None = None) -> dict[str, Any]:
        ext = name.rsplit(".", 1)[-1].lower() if "." in name.strip(".") else ""
        mime = None if kind == "folder" else MIME_TYPES.get(ext, "text/plain" if content is not None else
                                                              "application/octet-stream")
        if kind == "file" and digest is None:
            source = content if content is not None else f"{self.w.seed}:{path}:{size}"
            digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        row = {"node_id": len(self.nodes) + 1, "parent_id": parent, "path": path, "name": name, "kind": kind,
               "content": content, "size": size, "mime_type": mime, "content_hash": digest,
               "owner": owner or self.owner, "read_only": read_only, "created_at": iso(created),
               "modified_at": iso(max(modified, created)), "trash_id": None}
        self.nodes.append(row)
        self.by_path[path] = row
        return row

    def folder(self, path: str, at: datetime, **kw: Any) -> dict[str, Any]:
        if path in self.by_path:
            return self.by_path[path]
        parent_path, _, name = path.rpartition("/")
        parent = self.folder(parent_path or ROOT, at)
        return self._add(path, name, parent["node_id"], "folder", None, 0, at, at, **kw)

    def file(self, path: str, created: datetime, modified: datetime | None = None, *, text: str | None = None,
             size: int = 0, **kw: Any) -> dict[str, Any]:
        if path in self.by_path:  # a rare clash of generated names: keep the first
            return self.by_path[path]
        parent_path, _, name = path.rpartition("/")
        parent = self.folder(parent_path or ROOT, created)
        if text is not None:
            size = len(text.encode("utf-8"))
        return self._add(path, name, parent["node_id"], "file", text, size, created, modified or created, **kw)

    def subtree(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.nodes if r["path"] == path or r["path"].startswith(path + "/")]


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    rng, fake = w.rng, w.fake
    epoch = w.now
    today = epoch.date()

    def when(start: date, end: date) -> datetime:
        moment = _clock(fake.date_between(start, end), rng)
        return min(moment, epoch - timedelta(minutes=rng.randint(5, 90)))

    def mb(low: float, high: float) -> int:
        return int(rng.uniform(low, high) * 1_000_000)

    me = fake.person()
    email = fake.email(me)
    phone = fake.phone()
    home = fake.city("US")
    employer = fake.company()
    jobs = [employer] + [fake.company() for _ in range(2)]
    colleagues = [p for p in fake.people(9) if p.name != me.name][:8]
    manager = colleagues[0]
    project = rng.choice(PROJECT_NAMES)
    account_id = w.new_id("USR")
    since = datetime(rng.randint(2020, 2022), rng.randint(1, 12), rng.randint(1, 28), 10, 0, 0)

    d = Drive(w, me.name, since)
    for top in ("/Desktop", "/Documents", "/Downloads", "/Music", "/Photos", "/Projects", "/Videos", SHARED, VAULT):
        d.folder(top, since + timedelta(minutes=rng.randint(1, 50)))

    versions: list[tuple[str, list[str]]] = []   # (path, earlier contents oldest first)
    tags: list[tuple[str, str]] = []
    favorites: list[str] = []

    # ----- Documents/Finance ------------------------------------------------------------------
    fin = "/Documents/Finance"
    budget26 = c.budget(rng, 2026, 3)
    d.file(f"{fin}/Budget 2026.csv", datetime(2026, 1, 2, 19, 12), when(date(2026, 3, 9), today), text=budget26)
    lines = budget26.splitlines(keepends=True)
    versions.append((f"{fin}/Budget 2026.csv", ["".join(lines[:2]), "".join(lines[:3])]))
    budget25 = c.budget(rng, 2025, 12)
    d.file(f"{fin}/Budget 2025.csv", datetime(2025, 1, 3, 20, 5), datetime(2025, 12, 31, 18, 40), text=budget25)
    d.file(f"{fin}/Net worth.csv", datetime(2025, 1, 30, 21, 0), when(date(2025, 12, 28), date(2026, 1, 5)),
           text=c.net_worth(rng))
    statements = []
    for m in range(6):
        month = date(2025, 9, 1) + timedelta(days=31 * m)
        at = _clock(month.replace(day=1) + timedelta(days=rng.randint(2, 6) + 31), rng)
        statements.append(d.file(f"{fin}/Bank statements/Statement {month:%Y-%m}.pdf", at,
                                 size=rng.randint(60_000, 240_000)))
    taxes24 = f"{fin}/Taxes/2024"
    for name in ("W-2 2024.pdf", "1099-INT 2024.pdf", "Tax return 2024.pdf"):
        d.file(f"{taxes24}/{name}", when(date(2025, 2, 1), date(2025, 4, 10)), size=rng.randint(90_000, 900_000))
    d.by_path[taxes24]["read_only"] = 1
    taxes25 = f"{fin}/Taxes/2025"
    for name in ("W-2 2025.pdf", "1099-INT 2025.pdf"):
        d.file(f"{taxes25}/{name}", when(date(2026, 1, 25), date(2026, 2, 10)), size=rng.randint(90_000, 400_000))
    d.file(f"{taxes25}/deductions.csv", datetime(2026, 1, 12, 20, 30), when(date(2026, 2, 10), date(2026, 3, 8)),
           text=c.deductions(rng, 2025, home.name))
    d.file(f"{taxes25}/checklist.md", datetime(2026, 1, 12, 20, 45), when(date(2026, 2, 1), date(2026, 3, 12)),
           text=c.tax_checklist(2025, employer))
    for store in rng.sample(("Home Depot", "Best Buy", "IKEA", "Costco", "Apple Store", "REI"), 3):
        day = fake.date_between(date(2025, 6, 1), date(2026, 3, 1))
        d.file(f"{fin}/Receipts/receipt {store} {day.isoformat()}.pdf", _clock(day, rng),
               size=rng.randint(40_000, 200_000))
    tags += [(f"{fin}/Taxes", "taxes"), (f"{taxes25}/W-2 2025.pdf", "taxes"), (f"{taxes25}/deductions.csv", "taxes"),
             (f"{fin}/Receipts", "receipts"), (f"{fin}/Budget 2026.csv", "budget"),
             (f"{fin}/Budget 2025.csv", "budget")]
    favorites.append(f"{fin}/Budget 2026.csv")

    # ----- Documents/Work ---------------------------------------------------------------------
    work = f"/Documents/Work/{employer}"
    names = [p.name for p in colleagues] + [me.name]
    titles = list(c.MEETINGS)
    rng.shuffle(titles)
    n_notes = rng.randint(10, 16)
    days = sorted(rng.sample(range(1, 70), n_notes))
    for k in range(n_notes):
        day = today - timedelta(days=days[k])
        if day.weekday() >= 5:
            day -= timedelta(days=day.weekday() - 4)
        title = titles[k % len(titles)].format(manager=manager.first, vendor=fake.company())
        text = c.meeting_notes(rng, title, day, names, project)
        d.file(f"{work}/Meeting notes/{day.isoformat()} {title}.md", _clock(day, rng, 9, 18),
               _clock(day, rng, 17, 21), text=text)
    okr = c.okrs(rng, employer, project)
    d.file(f"{work}/Q1 2026 OKRs.md", datetime(2026, 1, 5, 10, 30), when(date(2026, 2, 20), date(2026, 3, 6)), text=okr)
    versions.append((f"{work}/Q1 2026 OKRs.md", [okr.replace("OKRs", "OKRs (draft)").rsplit("## O3", 1)[0]]))
    d.file(f"{work}/Onboarding checklist.md", since + timedelta(days=3), since + timedelta(days=20),
           text=c.onboarding(employer, manager.name))
    d.file(f"{work}/Team contacts.csv", when(date(2025, 6, 1), date(2025, 9, 1)),
           when(date(2026, 1, 5), date(2026, 2, 5)),
           text=c.team_contacts(rng, fake, colleagues[:6], employer))
    for name, lo, hi in WORK_DOCS:
        d.file(f"{work}/{name.format(p=project)}", when(date(2025, 10, 1), date(2026, 3, 10)),
               size=rng.randint(lo, hi) * 1000)
    tags += [(f"{work}/Meeting notes", "work"), (f"{work}/Q1 2026 OKRs.md", "work"),
             (f"{work}/Q1 2026 OKRs.md", "important")]
    favorites.append(f"{work}/Meeting notes")

    # ----- Documents/Personal, Home, Health, Recipes ------------------------------------------
    per = "/Documents/Personal"
    cv = c.resume(rng, me, email, phone, f"{home.name}, {home.region}", jobs)
    d.file(f"{per}/Resume.md", datetime(2024, 5, 2, 21, 0), when(date(2026, 2, 15), date(2026, 3, 10)), text=cv)
    cv_lines = cv.splitlines(keepends=True)
    versions.append((f"{per}/Resume.md", ["".join(cv_lines[:-4]) + "\n", "".join(cv_lines[:-1]) + "\n"]))
    resume_pdf = d.file(f"{per}/Resume.pdf", when(date(2026, 3, 1), date(2026, 3, 12)),
                        size=rng.randint(80_000, 160_000))
    target = rng.choice(jobs[1:] + [fake.company()])
    d.file(f"{per}/Cover letter - {target}.md", when(date(2026, 2, 20), date(2026, 3, 12)),
           text=c.cover_letter(me, target, rng.choice(c.ROLES)))
    d.file(f"{per}/Goals 2026.md", datetime(2026, 1, 1, 11, 20), when(date(2026, 1, 2), date(2026, 2, 1)),
           text=c.goals(rng))
    journal_days = {fake.date_between(date(2025, 11, 1), today - timedelta(days=1)) for _ in range(rng.randint(6, 10))}
    for day in sorted(journal_days):
        d.file(f"{per}/Journal/{day.isoformat()}.txt", _clock(day, rng, 20, 23), text=c.journal(rng, day))
    favorites.append(f"{per}/Resume.md")

    hm = "/Documents/Home"
    lease = d.file(f"{hm}/Lease agreement.pdf", when(date(2025, 5, 1), date(2025, 6, 30)),
                   size=rng.randint(400_000, 1_600_000),
                   read_only=1)
    d.file(f"{hm}/Renters insurance policy.pdf", when(date(2025, 6, 1), date(2025, 7, 30)),
           size=rng.randint(200_000, 900_000))
    d.file(f"{hm}/Home inventory.csv", when(date(2025, 7, 1), date(2025, 8, 30)),
           when(date(2025, 11, 1), date(2026, 1, 30)),
           text=c.inventory(rng))
    d.file(f"{hm}/Moving checklist.md", when(date(2025, 4, 1), date(2025, 5, 20)), text=c.moving_checklist())
    for month in ("2026-01", "2026-02"):
        for bill in ("Electric", "Internet"):
            billed = _clock(date.fromisoformat(month + "-01") + timedelta(days=33), rng)
            d.file(f"{hm}/Utility bills/{bill} {month}.pdf", billed,
                   size=rng.randint(50_000, 180_000))
    tags += [(lease["path"], "important"), (f"{hm}/Renters insurance policy.pdf", "important")]

    hl = "/Documents/Health"
    d.file(f"{hl}/Vaccination record.pdf", when(date(2023, 1, 1), date(2024, 12, 1)),
           size=rng.randint(100_000, 500_000))
    d.file(f"{hl}/Lab results 2025-11.pdf", when(date(2025, 11, 10), date(2025, 11, 30)),
           size=rng.randint(100_000, 400_000))
    d.file(f"{hl}/Medications.txt", when(date(2024, 3, 1), date(2025, 3, 1)), when(date(2025, 4, 1), date(2026, 3, 1)),
           text=c.medications())

    rec = "/Documents/Recipes"
    sources = ("Grandma", "NYT Cooking", "Serious Eats", "a friend", "Bon Appetit", "the cooking class")
    for name, serves, ingredients, steps in rng.sample(c.RECIPES, rng.randint(5, 8)):
        d.file(f"{rec}/{name}.md", when(date(2023, 1, 1), date(2026, 3, 1)),
               text=c.recipe(name, serves, ingredients, steps, rng.choice(sources)))
    tags.append((rec, "recipes"))

    # ----- Documents/Travel -------------------------------------------------------------------
    past, upcoming = rng.sample(TRIPS, 2)
    past_start = fake.date_between(date(2025, 6, 1), date(2025, 10, 15))
    next_start = fake.date_between(date(2026, 4, 3), date(2026, 5, 20))
    trip_paths = []
    for (city, country, hotel), start in ((past, past_start), (upcoming, next_start)):
        folder = f"/Documents/Travel/{city} {start.year}"
        nights = rng.randint(3, 7)
        planned = min(when(start - timedelta(days=60), start - timedelta(days=10)), epoch - timedelta(days=2))
        edited = min(planned + timedelta(days=rng.randint(1, 12)), epoch - timedelta(hours=3))
        d.file(f"{folder}/Itinerary.md", planned, edited,
               text=c.itinerary(rng, city, country, start, nights, hotel))
        d.file(f"{folder}/Packing list.txt", planned + timedelta(hours=1), text=c.packing_list(rng))
        d.file(f"{folder}/Hotel confirmation.pdf", planned + timedelta(hours=2), size=rng.randint(60_000, 200_000))
        d.file(f"{folder}/Boarding pass.pdf", planned + timedelta(hours=3), size=rng.randint(40_000, 120_000))
        tags.append((folder, "travel"))
        trip_paths.append(folder)
    favorites.append(f"{trip_paths[1]}/Itinerary.md")

    # ----- Photos -----------------------------------------------------------------------------
    number = rng.randint(1200, 6000)
    albums = []
    for event in rng.sample(EVENTS, rng.randint(4, 6)):
        day = fake.date_between(date(2025, 1, 10), date(2026, 2, 28))
        album = f"/Photos/{day.year}/{day:%Y-%m} {event}"
        for _ in range(rng.randint(8, 20)):
            number += rng.randint(1, 9)
            d.file(f"{album}/IMG_{number}.jpg", _clock(day, rng, 9, 21), size=mb(1.8, 5.5))
        albums.append(album)
    past_album = f"/Photos/{past_start.year}/{past_start:%Y-%m} {past[0]}"
    for _ in range(rng.randint(8, 14)):
        number += rng.randint(1, 9)
        d.file(f"{past_album}/IMG_{number}.jpg", _clock(past_start + timedelta(days=rng.randint(0, 3)), rng, 9, 21),
               size=mb(1.8, 5.5))
    albums.append(past_album)
    roll = []
    for _ in range(rng.randint(25, 45)):
        number += rng.randint(1, 5)
        roll.append(d.file(f"/Photos/Camera Roll/IMG_{number}.HEIC", when(date(2026, 1, 5), today), size=mb(1.2, 3.2)))
    shared_album = rng.choice(albums)
    favorites.append(shared_album)
    tags.append((past_album, "travel"))

    # ----- Desktop ----------------------------------------------------------------------------
    shots = []
    for _ in range(rng.randint(3, 6)):
        at = when(today - timedelta(days=14), today)
        shots.append(d.file(f"/Desktop/Screenshot {at:%Y-%m-%d} at {at:%H.%M.%S}.png", at, size=mb(0.3, 2.5)))
    todo = c.todo(rng, fake)
    d.file("/Desktop/todo.txt", when(date(2026, 2, 1), date(2026, 2, 20)), when(today - timedelta(days=4), today),
           text=todo)
    versions.append(("/Desktop/todo.txt", ["\n".join(todo.splitlines()[:-2]) + "\n"]))
    d.file("/Desktop/notes.txt", when(date(2026, 3, 1), today),
           text=f"call {fake.person().first} back re: {fake.words(2)}\nwifi at the cafe: {fake.code(8).lower()}\n"
                f"{project} demo moved to Thursday\n")
    favorites.append("/Desktop/todo.txt")

    # ----- Projects ---------------------------------------------------------------------------
    projects = rng.sample(sorted(c.PROJECTS), rng.randint(2, 3))
    for name in projects:
        start = when(date(2024, 6, 1), date(2025, 12, 1))
        for rel, text in c.project_files(name, me, home.name).items():
            created = start + timedelta(hours=rng.randint(0, 200))
            d.file(f"/Projects/{name}/{rel}", created, when(created.date(), today), text=text)
    first_code = next(p for p in (f"/Projects/{projects[0]}/{rel}" for rel in c.PROJECTS[projects[0]])
                      if p.endswith((".py", ".js", ".html")))
    code = d.by_path[first_code]["content"]
    versions.append((first_code, ["\n".join(code.splitlines()[:-2]) + "\n"]))
    favorites.append(f"/Projects/{projects[0]}")

    # ----- Shared with me ---------------------------------------------------------------------
    offsite = today + timedelta(days=rng.randint(10, 40))
    for person, files in zip(rng.sample(colleagues, 3), (
            (("Team offsite agenda.md", c.offsite_agenda(rng, home.name, offsite), 1),),
            (("Q2 roadmap draft.md", c.roadmap_draft(rng, rng.sample(PROJECT_NAMES, 4)), 0),
             ("Hiring plan.xlsx", None, 1)),
            (("Design review notes.md", c.design_notes(rng, project), 0), ("Brand guidelines.pdf", None, 1)))):
        for name, text, ro in files:
            at = when(date(2026, 2, 1), today)
            kw = {"text": text} if text is not None else {"size": rng.randint(80_000, 3_000_000)}
            d.file(f"{SHARED}/{person.name}/{name}", at, owner=person.name, read_only=ro, **kw)
        d.by_path[f"{SHARED}/{person.name}"]["owner"] = person.name
    tags.append((next(p for p in d.by_path if p.endswith("Q2 roadmap draft.md")), "to-review"))

    # ----- Personal Vault ---------------------------------------------------------------------
    for name, lo, hi in (("Passport scan.pdf", 0.4, 2.0), ("Driver's license.jpg", 0.8, 2.5),
                         ("Social Security card.pdf", 0.2, 0.8), ("Birth certificate.pdf", 0.3, 1.5),
                         ("Health insurance card.jpg", 0.5, 2.0)):
        d.file(f"{VAULT}/{name}", when(date(2023, 1, 1), date(2025, 12, 1)), size=mb(lo, hi))
    d.file(f"{VAULT}/Recovery codes.txt", when(date(2024, 1, 1), date(2025, 12, 1)), text=c.recovery_codes(rng))

    # ----- Music ------------------------------------------------------------------------------
    tracks = []
    for artist, album, songs in rng.sample(ARTISTS, 4):
        at = when(date(2022, 1, 1), date(2025, 6, 1))
        for n, song in enumerate(songs, 1):
            path = f"/Music/{artist}/{album}/{n:02d} {song}.mp3"
            d.file(path, at + timedelta(seconds=n), size=mb(3.0, 9.0))
            tracks.append(path)
    d.file("/Music/Playlists/Road trip.m3u", when(date(2025, 5, 1), date(2025, 8, 1)),
           text=c.playlist(rng.sample(tracks, min(8, len(tracks)))))

    # ----- Downloads: installers, duplicates, archives ----------------------------------------
    for name, lo, hi in rng.sample(INSTALLERS, 3):
        d.file(f"/Downloads/{name}", when(date(2025, 9, 1), today), size=rng.randint(lo, hi) * 1_000_000)
    for _ in range(rng.randint(3, 6)):
        d.file(f"/Downloads/invoice-{rng.randint(10000, 99999)}.pdf", when(date(2025, 11, 1), today),
               size=rng.randint(30_000, 150_000))

    def duplicate(source: dict[str, Any], path: str, at: datetime) -> None:
        kw = {"text": source["content"]} if source["content"] is not None else {"size": source["size"]}
        d.file(path, at, digest=source["content_hash"], **kw)

    duplicate(resume_pdf, "/Downloads/Resume (1).pdf", when(date(2026, 3, 1), today))
    duplicate(statements[-1], "/Downloads/statement-2026-02.pdf", when(date(2026, 3, 5), today))
    photo = rng.choice(roll)
    duplicate(photo, f"/Downloads/{photo['name'].rsplit('.', 1)[0]} (1).HEIC", when(date(2026, 3, 1), today))
    duplicate(d.by_path[f"{fin}/Budget 2025.csv"], "/Downloads/budget-2025-export.csv",
              when(date(2026, 1, 2), date(2026, 1, 20)))

    archives: list[tuple[dict[str, Any], str]] = []
    album_zip = f"/Downloads/{albums[0].rsplit('/', 1)[1]}.zip"
    for zip_path, source in (("/Downloads/tax-docs-2024.zip", taxes24), (album_zip, albums[0])):
        members = d.subtree(source)
        text_bytes = sum(m["size"] for m in members if m["content"] is not None)
        bin_bytes = sum(m["size"] for m in members if m["content"] is None)
        node = d.file(zip_path, when(date(2025, 12, 1), today), size=max(22, int(text_bytes * 0.35 + bin_bytes * 0.97)))
        archives.append((node, source))
    tags.append((archives[0][0]["path"], "taxes"))

    # ----- Trash ------------------------------------------------------------------------------
    trash_rows: list[dict[str, Any]] = []

    def trash(path: str, deleted: datetime) -> None:
        root = d.by_path[path]
        members = d.subtree(path)
        latest = max(datetime.fromisoformat(m["modified_at"]) for m in members)
        deleted = min(max(deleted, latest + timedelta(minutes=rng.randint(10, 600))), epoch - timedelta(minutes=20))
        trash_id = w.new_id("TRS")
        trash_rows.append({"trash_id": trash_id, "node_id": root["node_id"], "name": root["name"], "kind": root["kind"],
                           "original_path": path, "size": sum(m["size"] for m in members if m["kind"] == "file"),
                           "item_count": len(members), "deleted_at": iso(deleted)})
        for m in members:
            m["trash_id"] = trash_id
        root["parent_id"] = None

    old_cv = "\n".join(cv_lines[:6]) + "\n\n(old version from 2023)\n"
    d.file(f"{per}/Resume 2023.md", datetime(2023, 4, 2, 20, 0), datetime(2023, 4, 9, 21, 30), text=old_cv)
    old_album = f"/Photos/{2024}/2024-0{rng.randint(5, 9)} Old phone backup"
    for _ in range(rng.randint(4, 8)):
        number += 1
        d.file(f"{old_album}/IMG_{number}.jpg", when(date(2024, 5, 1), date(2024, 9, 30)), size=mb(1.5, 4.0))
    recording = d.file(f"/Videos/Screen recording {fake.date_between(date(2025, 9, 1), date(2025, 12, 20))}.mov",
                       when(date(2025, 12, 21), date(2026, 1, 20)), size=mb(800, 1600))
    d.file("/Desktop/Untitled.txt", when(date(2026, 1, 25), date(2026, 2, 10)), text="asdf\n")
    trash(f"{per}/Resume 2023.md", epoch - timedelta(days=rng.randint(3, 10), hours=rng.randint(1, 9)))
    trash(old_album, epoch - timedelta(days=rng.randint(27, 29), hours=rng.randint(1, 9)))
    trash(recording["path"], epoch - timedelta(days=rng.randint(12, 20), hours=rng.randint(1, 9)))
    trash("/Desktop/Untitled.txt", epoch - timedelta(days=rng.randint(25, 29), hours=rng.randint(1, 9)))
    trash(shots[-1]["path"], epoch - timedelta(days=rng.randint(0, 2), hours=rng.randint(1, 9)))

    # ----- Videos fill most of the plan -------------------------------------------------------
    quota = PLAN[1]
    used = sum(r["size"] for r in d.nodes if r["kind"] == "file")
    goal = int(quota * rng.uniform(0.93, 0.965)) - used
    picks = rng.sample(VIDEOS, rng.randint(4, 6))
    weights = [rng.uniform(0.5, 1.5) for _ in picks]
    for name, weight in zip(picks, weights):
        size = int(goal * weight / sum(weights))
        d.file(f"/Videos/{name}", when(date(2025, 3, 1), date(2026, 2, 28)), size=size)

    # ----- a little more variety per seed -----------------------------------------------------
    notes = sorted(p for p in d.by_path if p.startswith(f"{work}/Meeting notes/") and p.endswith(".md"))
    for path in rng.sample(notes, rng.randint(1, 3)):
        versions.append((path, [d.by_path[path]["content"].split("## Action items", 1)[0]]))
    recipes = sorted(p for p in d.by_path if p.startswith(rec + "/"))
    tags += [(p, "weeknight") for p in rng.sample(recipes, rng.randint(1, 3))]
    tags += [(p, "family") for p in rng.sample(albums, rng.randint(1, 2))]
    invoices = sorted(p for p in d.by_path if p.startswith("/Downloads/invoice-"))
    tags += [(p, "receipts") for p in rng.sample(invoices, rng.randint(1, len(invoices)))]
    favorites += rng.sample(recipes + albums + notes, rng.randint(1, 3))

    # ----- versions, tags, favorites ----------------------------------------------------------
    version_rows = []
    for path, earlier in versions:
        node = d.by_path[path]
        created = datetime.fromisoformat(node["created_at"])
        modified = datetime.fromisoformat(node["modified_at"])
        step = (modified - created) / (len(earlier) + 1)
        for n, text in enumerate(earlier, 1):
            version_rows.append({"version_id": w.new_id("VER"), "node_id": node["node_id"], "version_no": n,
                                 "content": text, "size": len(text.encode("utf-8")),
                                 "modified_at": iso(created + step * (n - 1))})
    tag_rows = sorted({(d.by_path[p]["node_id"], t) for p, t in tags})
    favorite_rows = [{"node_id": d.by_path[p]["node_id"],
                      "added_at": iso(when(datetime.fromisoformat(d.by_path[p]["created_at"]).date(), today))}
                     for p in dict.fromkeys(favorites)]

    # ----- share links ------------------------------------------------------------------------
    alphabet = string.ascii_letters + string.digits
    link_rows = []

    def link(path: str, access: str, created: datetime, expires: datetime | None,
             revoked: datetime | None = None) -> None:
        link_rows.append({"link_id": w.new_id("LNK"), "node_id": d.by_path[path]["node_id"],
                          "token": fake.code(22, alphabet), "access": access, "created_at": iso(created),
                          "expires_at": iso(expires) if expires else None,
                          "revoked_at": iso(revoked) if revoked else None})

    link(shared_album, "view", when(date(2025, 10, 1), date(2026, 2, 1)), None)
    link(resume_pdf["path"], "view", when(date(2026, 3, 2), date(2026, 3, 13)),
         datetime.combine(today + timedelta(days=rng.randint(5, 21)), time(23, 59, 59)))
    made = datetime.combine(past_start - timedelta(days=20), time(19, 5))
    link(f"{trip_paths[0]}/Itinerary.md", "view", made, made + timedelta(days=30))
    link(f"{fin}/Budget 2026.csv", "edit", when(date(2026, 1, 3), date(2026, 1, 20)), None)
    made = when(date(2025, 11, 1), date(2026, 1, 31))
    link(f"{work}/{WORK_DOCS[0][0].format(p=project)}", "view", made, None, made + timedelta(days=rng.randint(2, 20)))

    # ----- archive members --------------------------------------------------------------------
    member_rows = []
    for node, source in archives:
        base = source.rsplit("/", 1)[0] + "/"
        for m in d.subtree(source):
            member_rows.append({"node_id": node["node_id"], "member_path": m["path"][len(base):], "kind": m["kind"],
                                "content": m["content"], "size": m["size"] if m["kind"] == "file" else 0,
                                "content_hash": m["content_hash"], "modified_at": m["modified_at"]})

    # ----- activity ---------------------------------------------------------------------------
    events: list[tuple[str, str, str, str | None]] = []
    for r in d.nodes:
        if r["kind"] != "file" or r["owner"] != me.name:
            continue
        events.append((r["created_at"], "uploaded" if r["content"] is None else "created", r["path"], None))
        if r["modified_at"] > r["created_at"]:
            events.append((r["modified_at"], "edited", r["path"], None))
    for t in trash_rows:
        events.append((t["deleted_at"], "deleted", t["original_path"], "moved to the trash"))
    path_of = {r["node_id"]: r["path"] for r in d.nodes}
    for lk in link_rows:
        events.append((lk["created_at"], "shared", path_of[lk["node_id"]], f"{lk['access']} link {lk['link_id']}"))
        if lk["revoked_at"]:
            events.append((lk["revoked_at"], "unshared", path_of[lk["node_id"]], f"revoked link {lk['link_id']}"))
    events.sort()
    activity_rows = [{"activity_id": w.new_id("ACT"), "at": at, "action": action, "path": path, "detail": detail}
                     for at, action, path, detail in events[-rng.randint(80, 110):]]

    account = {"account_id": account_id, "name": me.name, "email": email, "plan": PLAN[0], "quota_bytes": quota,
               "vault_passcode": fake.digits(6), "vault_unlocked_until": None}
    if rng.random() < VAULT_OPEN_SHARE:
        # The user opened the vault a few minutes ago (to look up a document) and it is still open.
        account["vault_unlocked_until"] = iso(w.now + timedelta(minutes=rng.randint(6, 17)))
    return {
        "account": [account],
        "trash": trash_rows,
        "nodes": d.nodes,
        "versions": version_rows,
        "tags": [{"node_id": n, "tag": t} for n, t in tag_rows],
        "favorites": favorite_rows,
        "share_links": link_rows,
        "archive_members": member_rows,
        "activity": activity_rows,
    }
