#!/usr/bin/env python3
"""Seeded random note types and notes, and the cards Anki's own library makes for each
(Tests/MaeilEndToEndTests/CardTemplatesAgainstAnkiTests.swift):

    card-templates.py DIR SEED COUNT

makes COUNT standard note types of two to four fields and one to three templates, each question
drawn from fields, filters (`hint:`, `text:`, `type:`), sections (`{{#Field}}`, `{{^Field}}`,
nested, on fields and on special names), special names (`{{Tags}}`, `{{Deck}}`, `{{FrontSide}}`…)
and HTML; then notes of each type with fields empty, white space, a zero-width space, a line
break's HTML or text, some tagged. Anki adds each note to deck
"Templates" (a note that would have no card is refused) and exports DIR/templates.apkg. Prints one
JSON object: for each note tried, its note type, fields, tags, and the names of the templates Anki made
cards from (null where Anki refused it); by guid for the notes added. Half the types get answers
drawn the same way after `{{FrontSide}}`; for each card Anki made, "answers" names the fields
its question shows and those its answer adds (each field Anki counts as not empty given a
marker of its own, its emptiness kept, and the card rendered by Anki), leaving out a field the
question types, and "order" and "answer_order" the order each side shows them in. Then a
quarter as many cloze types (a field of deletions, "Text", and other fields shown through
sections on both sides, before the deletions and after them), whose cards are
named by number (c1, c2…) and whose deletions' field the answers leave out but for its place
in "order" and "answer_order".
"""
import json
import os
import random
import re
import sys

from anki.collection import Collection, ExportAnkiPackageOptions

VALUES = ["", "", " ", "\u200b", "<br>", "text", "한국어", "&nbsp;"]


def question(rng, fields, depth=0):
    parts = []
    for _ in range(rng.randint(1, 3)):
        field = rng.choice(fields)
        section = rng.choice(fields + ["Tags", "Deck", "Card"])
        kind = rng.choice(["field", "field", "filter", "if", "unless", "special", "html"] if depth < 2 else ["field", "filter", "html"])
        if kind == "field":
            parts.append("{{%s}}" % field)
        elif kind == "filter":
            parts.append("{{%s:%s}}" % (rng.choice(["hint", "text"]), field))
        elif kind == "if":
            parts.append("{{#%s}}%s{{/%s}}" % (section, question(rng, fields, depth + 1), section))
        elif kind == "unless":
            parts.append("{{^%s}}%s{{/%s}}" % (section, question(rng, fields, depth + 1), section))
        elif kind == "special":
            parts.append("{{%s}}" % rng.choice(["Tags", "Deck", "Card", "FrontSide", "CardFlag", "Subdeck"]))
        else:
            parts.append(rng.choice(["<div>", "<br>", "Q: "]))
    return "".join(parts)


def answers(col, model, fields, values, note):
    """The fields each card's answer shows, by template name: markers in place of the values
    Anki counts as not empty, so a field shows where its marker does."""
    marked = col.new_note(model)
    marked.tags = note.tags
    markers = {}
    for name, value in zip(fields, values):
        # A cloze's deletions are its own (the test leaves them out).
        empty = value in ("", " ", "<br>") or (cloze(model) and name == "Text")
        marked[name] = value if empty else "mark%sx" % name
        if not empty:
            markers[name] = marked[name]
    shown = {}
    for card in note.cards():
        template = model["tmpls"][0 if cloze(model) else card.ord]
        typed = {name for name in fields if "{{type:%s}}" % name in template["qfmt"]}
        rendered = marked.ephemeral_card(card.ord)
        question, answer = rendered.question(), rendered.answer()
        asked = sorted(name for name, marker in markers.items() if marker in question and name not in typed)
        added = sorted(name for name, marker in markers.items() if marker in answer and name not in typed and name not in asked)
        # The order the question shows them in, each where it first shows; a cloze's deletions
        # as "Text", where its card's deletion shows.
        places = {name: question.find(markers[name]) for name in asked}
        if cloze(model):
            places["Text"] = question.find('class="cloze"')
        order = sorted(places, key=places.get)
        answer_places = {name: answer.find(markers[name]) for name in added}
        if cloze(model):
            # The answer's own deletions, revealed (a question shown again through
            # {{FrontSide}} has them as "[...]").
            revealed = re.search(r'<span class="cloze"[^>]*>(?!\[\.\.\.\])', answer)
            if revealed:
                answer_places["Text"] = revealed.start()
        shown[card_name(model, card)] = {"question": asked, "answer": added, "order": order,
                                         "answer_order": sorted(answer_places, key=answer_places.get)}
    return shown


def cloze(model):
    return model["type"] == 1


def card_name(model, card):
    """A standard type's card by its template's name, a cloze's by its number (c1, c2…)."""
    return "c%d" % (card.ord + 1) if cloze(model) else model["tmpls"][card.ord]["name"]


def main(folder, seed, count):
    rng = random.Random(int(seed))
    os.makedirs(folder, exist_ok=True)
    col = Collection(os.path.join(folder, "collection.anki2"))
    deck = col.decks.id("Templates")
    tried = []
    for number in range(int(count)):
        models = col.models
        model = models.new(f"Type {seed}-{number}")
        fields = [f"F{index}" for index in range(rng.randint(2, 4))]
        for name in fields:
            models.add_field(model, models.new_field(name))
        for index in range(rng.randint(1, 3)):
            template = models.new_template(f"T{number}-{index}")
            template["qfmt"] = question(rng, fields)
            if rng.random() < 0.2:
                template["qfmt"] += "{{type:%s}}" % rng.choice(fields)
            if rng.random() < 0.5:
                template["afmt"] = "{{FrontSide}}<hr id=answer>" + question(rng, fields)
            else:
                template["afmt"] = "{{FrontSide}}<hr id=answer>" + "".join("{{%s}}" % name for name in fields)
            models.add_template(model, template)
        try:
            models.add(model)
        except Exception:
            continue  # a question Anki refuses (no field it could show)
        model = models.by_name(model["name"])
        for _ in range(12):
            note = col.new_note(model)
            values = [rng.choice(VALUES) for _ in fields]
            for name, value in zip(fields, values):
                note[name] = value
            note.tags = ["tagged"] if rng.random() < 0.3 else []
            entry = {"notetype": model["name"], "fields": dict(zip(fields, values)), "tags": note.tags, "cards": None}
            try:
                col.add_note(note, deck)
                entry["guid"] = note.guid
                entry["cards"] = [card_name(model, card) for card in note.cards()]
                entry["answers"] = answers(col, model, fields, values, note)
            except Exception:
                pass
            tried.append(entry)
    # Cloze types, a quarter as many, drawn apart so the standard types stay as they were: the
    # deletions' field and others, shown through sections on both sides.
    rng = random.Random(int(seed) + 1)
    for number in range(int(count) // 4):
        models = col.models
        model = models.new(f"Cloze {seed}-{number}")
        model["type"] = 1
        fields = ["Text"] + [f"F{index}" for index in range(1, rng.randint(2, 4))]
        for name in fields:
            models.add_field(model, models.new_field(name))
        template = models.new_template("Cloze")
        # Other fields before the deletions, after them, or both.
        template["qfmt"] = question(rng, fields[1:]) + "{{cloze:Text}}" + question(rng, fields[1:])
        template["afmt"] = question(rng, fields[1:]) + "{{cloze:Text}}<br>" + question(rng, fields[1:])
        models.add_template(model, template)
        models.add(model)
        model = models.by_name(model["name"])
        for _ in range(12):
            note = col.new_note(model)
            values = [rng.choice(["{{c1::가}} 나", "{{c1::가}} {{c2::나}}", "다 {{c2::라}}"])] + [rng.choice(VALUES) for _ in fields[1:]]
            for name, value in zip(fields, values):
                note[name] = value
            note.tags = ["tagged"] if rng.random() < 0.3 else []
            entry = {"notetype": model["name"], "fields": dict(zip(fields, values)), "tags": note.tags, "cards": None}
            col.add_note(note, deck)
            entry["guid"] = note.guid
            entry["cards"] = [card_name(model, card) for card in note.cards()]
            entry["answers"] = answers(col, model, fields, values, note)
            tried.append(entry)
    col.export_anki_package(out_path=os.path.join(folder, "templates.apkg"),
                            options=ExportAnkiPackageOptions(with_scheduling=True, with_media=False, with_deck_configs=True, legacy=False),
                            limit=None)
    col.close()
    print(json.dumps({"notes": tried}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
