"""Text the filesystem world writes into files: recipes, notes, budgets, code, itineraries...

Every function draws only from the `random.Random` and `Fake` it is given, so a seed always
writes the same drive. Texts are short (a few hundred bytes) to keep the template small.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from prove.env.fake import Fake, Person

# ----- recipes ----------------------------------------------------------------------------------

RECIPES: tuple[tuple[str, int, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Shakshuka", 2, ("4 eggs", "1 can crushed tomatoes", "1 red bell pepper", "1 onion", "2 cloves garlic",
                      "1 tsp cumin", "1 tsp smoked paprika", "feta and parsley to serve"),
     ("Soften onion and pepper in olive oil, 8 minutes.",
      "Add garlic and spices, then the tomatoes; simmer 10 minutes.",
      "Make four wells, crack in the eggs, cover and cook 6-8 minutes.", "Top with feta and parsley.")),
    ("Banana bread", 8, ("3 ripe bananas", "1/3 cup melted butter", "3/4 cup sugar", "1 egg", "1 tsp vanilla",
                         "1 tsp baking soda", "pinch of salt", "1 1/2 cups flour"),
     ("Heat the oven to 350F.", "Mash bananas, stir in butter, sugar, egg and vanilla.",
      "Fold in soda, salt and flour.", "Bake in a loaf pan for 55-60 minutes.")),
    ("Chicken tikka masala", 4, ("1.5 lb chicken thighs", "1 cup yogurt", "2 tbsp garam masala", "1 onion",
                                 "3 cloves garlic", "1 tbsp ginger", "1 can tomato puree", "1/2 cup cream"),
     ("Marinate chicken in yogurt and half the spices for 1 hour.", "Grill or broil until charred.",
      "Cook onion, garlic and ginger; add spices and tomato; simmer 15 minutes.", "Stir in cream and chicken.")),
    ("Lemon garlic pasta", 2, ("200 g spaghetti", "3 cloves garlic", "1 lemon", "1/4 cup olive oil",
                               "chili flakes", "parmesan", "parsley"),
     ("Boil the pasta in salted water.", "Warm oil with sliced garlic and chili until fragrant.",
      "Toss pasta with the oil, lemon zest and juice and a splash of pasta water.", "Finish with parmesan.")),
    ("Overnight oats", 1, ("1/2 cup rolled oats", "1/2 cup milk", "1/4 cup yogurt", "1 tbsp chia seeds",
                           "1 tsp maple syrup", "berries"),
     ("Stir everything but the berries in a jar.", "Refrigerate overnight.", "Top with berries in the morning.")),
    ("Black bean tacos", 4, ("2 cans black beans", "8 corn tortillas", "1 avocado", "1 lime", "1/2 red onion",
                             "1 tsp cumin", "salsa", "cilantro"),
     ("Warm the beans with cumin and a splash of water; mash lightly.", "Char the tortillas.",
      "Fill with beans, avocado, onion, salsa and cilantro; squeeze lime over.")),
    ("Miso glazed salmon", 2, ("2 salmon fillets", "2 tbsp white miso", "1 tbsp mirin", "1 tsp soy sauce",
                               "1 tsp honey", "sesame seeds", "scallions"),
     ("Whisk miso, mirin, soy and honey.", "Brush over the salmon and rest 15 minutes.",
      "Broil 8-10 minutes until glazed.", "Garnish with sesame and scallions.")),
    ("Minestrone", 6, ("1 onion", "2 carrots", "2 celery stalks", "1 zucchini", "1 can cannellini beans",
                       "1 can diced tomatoes", "6 cups stock", "1 cup small pasta", "parmesan rind"),
     ("Soften onion, carrot and celery.", "Add zucchini, tomatoes, stock and the rind; simmer 20 minutes.",
      "Add beans and pasta; cook until tender.", "Season and serve with grated parmesan.")),
    ("Guacamole", 4, ("3 avocados", "1 lime", "1/2 white onion", "1 jalapeno", "1 tomato", "cilantro", "salt"),
     ("Mash avocados with lime and salt.", "Fold in chopped onion, jalapeno, tomato and cilantro.")),
    ("Pancakes", 4, ("1 1/2 cups flour", "3 1/2 tsp baking powder", "1 tbsp sugar", "1 1/4 cups milk", "1 egg",
                     "3 tbsp melted butter"),
     ("Whisk dry ingredients; whisk wet ingredients.", "Combine until just mixed.",
      "Cook 1/4 cup at a time on a hot griddle until bubbles form, then flip.")),
    ("Thai green curry", 4, ("1 lb chicken or tofu", "2 tbsp green curry paste", "1 can coconut milk",
                             "1 cup green beans", "1 red pepper", "Thai basil", "fish sauce", "jasmine rice"),
     ("Fry the paste in a little coconut cream.",
      "Add the rest of the coconut milk and the chicken; simmer 10 minutes.",
      "Add vegetables for 5 minutes; season with fish sauce.", "Serve over rice with basil.")),
)


def recipe(name: str, serves: int, ingredients: tuple[str, ...], steps: tuple[str, ...], source: str) -> str:
    lines = [f"# {name}", "", f"Serves {serves}. Source: {source}.", "", "## Ingredients", ""]
    lines += [f"- {i}" for i in ingredients]
    lines += ["", "## Steps", ""]
    lines += [f"{n}. {s}" for n, s in enumerate(steps, 1)]
    return "\n".join(lines) + "\n"


# ----- work -------------------------------------------------------------------------------------

MEETINGS = ("Sprint planning", "Design review", "1-1 with {manager}", "Roadmap sync", "Retro",
            "Customer feedback review", "Launch readiness", "Hiring debrief", "Budget check-in",
            "Incident postmortem", "Quarterly planning", "Vendor call {vendor}")
DECISIONS = ("ship the beta to 10% of users on {d}", "move the data migration to next sprint",
             "freeze the API until the launch", "hire one more backend engineer", "drop the legacy export",
             "run a usability study with five customers", "cut scope: no offline mode in v1",
             "keep weekly releases through April", "switch the dashboard to the new metrics")
ACTIONS = ("draft the rollout plan", "update the onboarding doc", "send the survey to customers",
           "review the security checklist", "file tickets for the bugs found", "share the budget numbers",
           "book the offsite venue", "write the postmortem summary", "prepare the demo for Friday",
           "check the vendor contract renewal date", "clean up the feature flags")


def meeting_notes(rng: random.Random, title: str, day: date, people: list[str], project: str) -> str:
    attendees = rng.sample(people, min(len(people), rng.randint(3, 5)))
    lines = [f"# {title}", "", f"Date: {day.isoformat()}", f"Project: {project}",
             f"Attendees: {', '.join(attendees)}", "", "## Notes", ""]
    for _ in range(rng.randint(2, 3)):
        lines.append(f"- Discussed {rng.choice(ACTIONS).split(' ', 1)[1]} for {project}.")
    lines += ["", "## Decisions", ""]
    for d in rng.sample(DECISIONS, 2):
        lines.append("- " + d.format(d=(day + timedelta(days=rng.randint(7, 30))).isoformat()))
    lines += ["", "## Action items", ""]
    for a in rng.sample(ACTIONS, 3):
        lines.append(f"- [ ] {rng.choice(attendees).split()[0]}: {a}")
    return "\n".join(lines) + "\n"


def okrs(rng: random.Random, company: str, project: str) -> str:
    goals = [("Launch {p} to all customers", ("GA by end of March", "p95 latency under 300 ms", "zero P1 incidents")),
             ("Grow active teams", ("+{n}% weekly active teams", "activation rate from 38% to 45%")),
             ("Make on-call calmer", ("pages per week under 5", "runbooks for every alert")),
             ("Cut cloud spend", ("-{n}% compute cost", "retire two legacy clusters"))]
    lines = [f"# Q1 2026 OKRs - {company}", ""]
    for n, (goal, krs) in enumerate(rng.sample(goals, 3), 1):
        lines.append(f"## O{n}: {goal.format(p=project)}")
        lines += [f"- KR{n}.{k}: {kr.format(n=rng.randint(8, 25))}" for k, kr in enumerate(krs, 1)]
        lines.append("")
    return "\n".join(lines)


def onboarding(company: str, manager: str) -> str:
    return (f"# Onboarding checklist - {company}\n\n- [x] Laptop set up\n- [x] Accounts: email, chat, wiki\n"
            f"- [x] Meet {manager} (manager)\n- [ ] Read the architecture overview\n"
            "- [ ] Shadow on-call for one week\n- [ ] Ship a first small change\n")


def team_contacts(rng: random.Random, fake: Fake, people: list[Person], company: str) -> str:
    domain = company.lower().replace(" ", "") + ".com"
    rows = ["name,role,email,phone"]
    roles = ("Engineer", "Designer", "Product Manager", "Data Analyst", "Engineering Manager", "QA Engineer")
    for p in people:
        rows.append(f"{p.name},{rng.choice(roles)},{fake.email(p, domain)},{fake.phone()}")
    return "\n".join(rows) + "\n"


# ----- money ------------------------------------------------------------------------------------

BUDGET_LINES = (("Rent", 1400, 3200), ("Groceries", 350, 700), ("Utilities", 120, 260), ("Transport", 80, 320),
                ("Dining out", 120, 450), ("Subscriptions", 40, 90), ("Savings", 300, 1200), ("Fun", 80, 300))
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def budget(rng: random.Random, year: int, months: int) -> str:
    base = {name: rng.randint(lo, hi) for name, lo, hi in BUDGET_LINES}
    rows = ["month," + ",".join(name for name, _, _ in BUDGET_LINES) + ",total"]
    for m in range(months):
        values = [base[name] if name in ("Rent", "Savings", "Subscriptions") else
                  round(base[name] * rng.uniform(0.8, 1.2)) for name, _, _ in BUDGET_LINES]
        rows.append(f"{MONTHS[m]} {year}," + ",".join(map(str, values)) + f",{sum(values)}")
    return "\n".join(rows) + "\n"


def deductions(rng: random.Random, year: int, city: str) -> str:
    items = (("Charitable donation", "Red Cross", 50, 400), ("Charitable donation", f"{city} Food Bank", 25, 200),
             ("Medical", "Dental crown", 300, 1400), ("Education", "Online course", 100, 600),
             ("Home office", "Desk chair", 150, 500), ("Medical", "Physical therapy", 80, 400))
    rows = ["date,category,description,amount"]
    for cat, what, lo, hi in rng.sample(items, 4):
        day = date(year, rng.randint(1, 12), rng.randint(1, 28))
        rows.append(f"{day.isoformat()},{cat},{what},{rng.randint(lo, hi)}.00")
    return "\n".join([rows[0]] + sorted(rows[1:])) + "\n"


def tax_checklist(year: int, employer: str) -> str:
    return (f"# Taxes {year}\n\n- [x] W-2 from {employer}\n- [x] 1099-INT from the bank\n"
            "- [ ] 1099-B from the brokerage (expected mid-February)\n- [ ] Charitable receipts in deductions.csv\n"
            f"- [ ] File by April 15, {year + 1}\n")


def net_worth(rng: random.Random) -> str:
    rows = ["date,checking,savings,brokerage,retirement,credit_card,total"]
    chk, sav = rng.randint(2, 9) * 1000, rng.randint(8, 40) * 1000
    brk, ret = rng.randint(5, 60) * 1000, rng.randint(20, 150) * 1000
    for m in range(1, 13):
        cc = -rng.randint(200, 2500)
        rows.append(f"2025-{m:02d}-28,{chk},{sav},{brk},{ret},{cc},{chk + sav + brk + ret + cc}")
        sav += rng.randint(200, 900)
        brk = round(brk * rng.uniform(0.97, 1.04))
        ret = round(ret * rng.uniform(0.98, 1.03)) + 500
    return "\n".join(rows) + "\n"


# ----- personal ---------------------------------------------------------------------------------

SKILLS = ("Python", "SQL", "TypeScript", "React", "AWS", "Docker", "Kubernetes", "Data analysis", "Figma",
          "Product strategy", "Go", "Terraform", "Public speaking", "Spanish (fluent)")
LED = ("a team of 4", "the migration to the cloud", "the redesign of onboarding", "pricing experiments")
SCHOOLS = ("University of Michigan", "UC Davis", "Boston University", "University of Toronto", "Georgia Tech")
ROLES = ("Software Engineer", "Senior Software Engineer", "Product Manager", "Data Analyst", "UX Designer",
         "Marketing Manager", "Operations Lead")


def resume(rng: random.Random, me: Person, email: str, phone: str, city: str, jobs: list[str]) -> str:
    lines = [f"# {me.name}", "", f"{city} | {email} | {phone}", "", "## Experience", ""]
    year = 2026
    for n, company in enumerate(jobs):
        start = year - rng.randint(2, 4)
        lines.append(f"**{rng.choice(ROLES)}, {company}** ({start}-{'present' if n == 0 else year})")
        lines.append(f"- Led {rng.choice(LED)}")
        cut = rng.choice(["costs", "load times", "support tickets", "churn"])
        lines.append(f"- Cut {cut} by {rng.randint(12, 45)}%")
        lines.append("")
        year = start
    lines += ["## Education", "", f"B.S., {rng.choice(SCHOOLS)}, {year - 1}", "",
              "## Skills", "", ", ".join(rng.sample(SKILLS, 6))]
    return "\n".join(lines) + "\n"


def cover_letter(me: Person, company: str, role: str) -> str:
    return (f"Dear {company} hiring team,\n\nI am excited to apply for the {role} role. Over the last few years I "
            "have shipped products people use every day, and I would love to bring that experience to your team.\n\n"
            f"Thank you for your time,\n{me.name}\n")


def todo(rng: random.Random, fake: Fake) -> str:
    tasks = ("Renew passport", "Call the dentist", "Pay the electricity bill", "Book flights for the summer",
             "Return the Amazon package", "Update resume", "Back up the laptop", "Buy a birthday gift for {f}",
             "Cancel the unused gym membership", "Schedule car service", "Send the lease renewal form",
             "Clean up Downloads", "Water the plants", "Reply to {f} about the weekend")
    picked = rng.sample(tasks, rng.randint(5, 8))
    done = set(rng.sample(range(len(picked)), 2))
    return "\n".join(("[x] " if i in done else "[ ] ") + t.format(f=fake.person().first)
                     for i, t in enumerate(picked)) + "\n"


def goals(rng: random.Random) -> str:
    pool = ("Run a half marathon", "Read 24 books", "Save 20% of income", "Learn to cook 10 new dishes",
            "Take a trip without a laptop", "Finish the online course", "Call my parents every Sunday",
            "Get to inbox zero every Friday", "Learn basic Italian", "Volunteer once a month")
    return "# Goals 2026\n\n" + "\n".join(f"{n}. {g}" for n, g in enumerate(rng.sample(pool, 5), 1)) + "\n"


def journal(rng: random.Random, day: date) -> str:
    moods = ("Good day.", "Tired but fine.", "Productive morning, slow afternoon.", "Felt great after the run.")
    bits = ("Went for a long walk after work.", "Finally fixed the bug that blocked the release.",
            "Tried a new recipe; it needs more salt.", "Caught up with an old friend on the phone.",
            "Rain all day, stayed in and read.", "Planned the next trip.")
    return f"{day.strftime('%A %d %B %Y')}\n\n{rng.choice(moods)} {' '.join(rng.sample(bits, 2))}\n"


def medications() -> str:
    return ("Medications\n\n- Vitamin D, 1000 IU, daily\n- Cetirizine 10 mg, as needed (spring allergies)\n"
            "\nAllergies: penicillin\n")


def inventory(rng: random.Random) -> str:
    items = (("Laptop", "Office", 1200, 2600), ("TV", "Living room", 400, 1500), ("Sofa", "Living room", 600, 2200),
             ("Bike", "Hallway", 300, 1800), ("Camera", "Office", 500, 1800), ("Coffee machine", "Kitchen", 80, 700),
             ("Desk", "Office", 150, 700), ("Headphones", "Office", 100, 400))
    rows = ["item,room,purchased,value"]
    for name, room, lo, hi in rng.sample(items, 6):
        rows.append(f"{name},{room},{rng.randint(2019, 2025)},{rng.randint(lo, hi)}")
    return "\n".join(rows) + "\n"


def moving_checklist() -> str:
    return ("# Moving checklist\n\n- [x] Give notice to the landlord\n- [x] Book movers\n"
            "- [ ] Change address at the bank\n"
            "- [ ] Transfer internet service\n- [ ] Update driver's license\n- [ ] Forward mail\n")


def itinerary(rng: random.Random, city: str, country: str, start: date, nights: int, hotel: str) -> str:
    airline = rng.choice(("Delta", "United", "American", "Air Canada", "British Airways", "Lufthansa", "TAP"))
    end = start + timedelta(days=nights)
    departs = f"{rng.randint(6, 20):02d}:{rng.choice(['05', '20', '35', '50'])}"
    lines = [f"# {city} trip", "", f"{start.isoformat()} to {end.isoformat()} ({nights} nights)",
             "", f"Flight out: {airline} {rng.randint(100, 999)}, departs {departs}",
             f"Hotel: {hotel}, confirmation {rng.randint(100000, 999999)}", "", "## Plan", ""]
    ideas = ("walking tour of the old town", "museum day", "day trip by train", "food market for lunch",
             "sunset viewpoint", "cooking class", "bike along the river", "rest and cafes")
    for n in range(min(nights, 4)):
        lines.append(f"- Day {n + 1}: {rng.choice(ideas)}")
    lines += ["", f"Currency and plugs: check for {country}."]
    return "\n".join(lines) + "\n"


def packing_list(rng: random.Random) -> str:
    items = ("passport", "phone charger", "adapter", "rain jacket", "walking shoes", "sunglasses", "toothbrush",
             "headphones", "book", "swimsuit", "camera", "medications")
    return "\n".join(f"- {i}" for i in rng.sample(items, 9)) + "\n"


def recovery_codes(rng: random.Random) -> str:
    codes = [f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}" for _ in range(8)]
    return "Backup codes for the email account (each works once)\n\n" + "\n".join(codes) + "\n"


def playlist(tracks: list[str]) -> str:
    return "#EXTM3U\n" + "\n".join(tracks) + "\n"


# ----- code projects ----------------------------------------------------------------------------

PROJECTS: dict[str, dict[str, str]] = {
    "weather-dashboard": {
        "README.md": "# weather-dashboard\n\nA small Flask app that shows the forecast for a list of cities.\n\n"
                     "## Run\n\n    pip install -r requirements.txt\n    flask --app src/app.py run\n",
        "requirements.txt": "flask==3.0.2\nrequests==2.31.0\npython-dotenv==1.0.1\npytest==8.1.1\n",
        ".gitignore": "__pycache__/\n.env\n.venv/\n*.pyc\n",
        "src/app.py": "from flask import Flask, render_template\n\nfrom weather_api import forecast\n\n"
                      "app = Flask(__name__)\n"
                      "CITIES = [\"{city}\", \"London\", \"Tokyo\"]\n\n\n@app.route(\"/\")\ndef index():\n"
                      "    return render_template(\"index.html\", rows=[forecast(c) for c in CITIES])\n",
        "src/weather_api.py": "import os\n\nimport requests\n\nAPI = \"https://api.open-meteo.com/v1/forecast\"\n\n\n"
                              "def forecast(city: str) -> dict:\n    \"\"\"Today's high and low for a city.\"\"\"\n"
                              "    lat, lon = lookup(city)\n"
                              "    r = requests.get(API, params={\"latitude\": lat, \"longitude\": lon,"
                              " \"daily\": \"temperature_2m_max,temperature_2m_min\"}, timeout=10)\n"
                              "    r.raise_for_status()\n    daily = r.json()[\"daily\"]\n"
                              "    return {\"city\": city, \"high\": daily[\"temperature_2m_max\"][0],\n"
                              "            \"low\": daily[\"temperature_2m_min\"][0]}\n",
        "tests/test_weather_api.py": "from weather_api import forecast\n\n\n"
                                     "def test_forecast_has_high_and_low(monkeypatch):\n"
                                     "    # TODO: mock requests.get\n    assert True\n",
    },
    "budget-tracker": {
        "README.md": "# budget-tracker\n\nTracks monthly spending from bank CSV exports.\n\n"
                     "    npm install\n    npm start\n",
        "package.json": "{\n  \"name\": \"budget-tracker\",\n  \"version\": \"0.3.0\",\n  \"main\": \"src/index.js\",\n"
                        "  \"scripts\": {\"start\": \"node src/index.js\", \"test\": \"jest\"},\n"
                        "  \"dependencies\": {\"csv-parse\": \"^5.5.3\"},\n"
                        "  \"devDependencies\": {\"jest\": \"^29.7.0\"}\n}\n",
        "src/index.js": "const { readLedger, totalsByCategory } = require('./ledger');\n\n"
                        "const rows = readLedger(process.argv[2] || 'export.csv');\n"
                        "console.table(totalsByCategory(rows));\n",
        "src/ledger.js": "const fs = require('fs');\nconst { parse } = require('csv-parse/sync');\n\n"
                         "function readLedger(file) {\n  return parse(fs.readFileSync(file), { columns: true });\n}\n\n"
                         "function totalsByCategory(rows) {\n  const out = {};\n  for (const r of rows) {\n"
                         "    out[r.category] = (out[r.category] || 0) + Number(r.amount);\n  }\n  return out;\n}\n\n"
                         "module.exports = { readLedger, totalsByCategory };\n",
        "test/ledger.test.js": "const { totalsByCategory } = require('../src/ledger');\n\n"
                               "test('sums by category', () => {\n"
                               "  expect(totalsByCategory([{category: 'food', amount: '2'},\n"
                               "                           {category: 'food', amount: '3'}]))"
                               ".toEqual({food: 5});\n});\n",
    },
    "personal-site": {
        "index.html": "<!doctype html>\n<html>\n"
                      "<head><title>{name}</title><link rel=\"stylesheet\" href=\"css/style.css\"></head>\n"
                      "<body>\n<h1>{name}</h1>\n<p>Notes on building things, cooking and travel.</p>\n"
                      "<a href=\"about.html\">About</a>\n</body>\n</html>\n",
        "about.html": "<!doctype html>\n<html><body><h1>About</h1><p>I live in {city}.</p></body></html>\n",
        "css/style.css": "body { font-family: system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; }\n"
                         "h1 { color: #1d3557; }\na { color: #e63946; }\n",
        "config.yaml": "title: {name}\nbase_url: https://example.com\nposts_dir: posts\n",
        "posts/2026-01-12-hello.md": "# Hello again\n\nI rebuilt this site over a weekend. Plain HTML, no framework.\n",
        "posts/2026-02-20-sourdough.md": "# Sourdough, attempt five\n\n"
                                         "Longer proof, hotter oven. Finally an open crumb.\n",
    },
    "recipe-scraper": {
        "README.md": "# recipe-scraper\n\nSaves recipes from web pages as Markdown.\n",
        "pyproject.toml": "[project]\nname = \"recipe-scraper\"\nversion = \"0.1.0\"\n"
                          "dependencies = [\"beautifulsoup4>=4.12\", \"httpx>=0.27\"]\n",
        "scraper/main.py": "import sys\n\nfrom scraper.parse import to_markdown\n\n\ndef main() -> None:\n"
                           "    url = sys.argv[1]\n    print(to_markdown(url))\n\n\n"
                           "if __name__ == \"__main__\":\n    main()\n",
        "scraper/parse.py": "import httpx\nfrom bs4 import BeautifulSoup\n\n\ndef to_markdown(url: str) -> str:\n"
                            "    soup = BeautifulSoup(httpx.get(url, timeout=10).text, \"html.parser\")\n"
                            "    title = soup.find(\"h1\").get_text(strip=True)\n"
                            "    items = [li.get_text(strip=True) for li in soup.select(\".ingredients li\")]\n"
                            "    return \"# \" + title + \"\\n\\n\" + \"\\n\".join(\"- \" + i for i in items)\n",
        "notes.txt": "TODO: handle pages without an h1\nTODO: save images\n",
    },
}


def project_files(name: str, me: Person, city: str) -> dict[str, str]:
    return {path: text.replace("{city}", city).replace("{name}", me.name) for path, text in PROJECTS[name].items()}


# ----- shared with me ---------------------------------------------------------------------------


def offsite_agenda(rng: random.Random, city: str, day: date) -> str:
    return (f"# Team offsite - {city}\n\n{day.isoformat()}\n\n09:30 Coffee\n10:00 Year in review\n"
            "11:30 Breakout: what to stop doing\n13:00 Lunch\n14:00 Roadmap brainstorm\n16:30 Wrap-up\n")


def roadmap_draft(rng: random.Random, projects: list[str]) -> str:
    lines = ["# Q2 roadmap (draft)", "", "Please comment by Friday.", ""]
    for p in projects:
        stage = rng.choice(["beta", "GA", "discovery", "sunset", "design"])
        lines.append(f"- {p}: {stage} in {rng.choice(['April', 'May', 'June'])}")
    return "\n".join(lines) + "\n"


def design_notes(rng: random.Random, project: str) -> str:
    return (f"# Design review: {project}\n\n- Navigation is confusing on mobile\n- Empty states need copy\n"
            "- Contrast of secondary buttons fails WCAG AA\n\n"
            f"Owner decisions pending: {rng.choice(['icons', 'color palette', 'layout grid'])}.\n")
