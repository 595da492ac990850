#!/usr/bin/env python3
"""Writes Decks/korean-topics: everyday Korean by topic, one unit per topic, for a word-card learner.

The words are Maeil's own list; each romanization is made by `koroman` (PyPI, MIT), which applies
Revised Romanization with its sound-change rules (몇 시 → myeot si, 맛있어요 → masisseoyo):

    pip install koroman==1.0.16 && python3 scripts/decks/generate-korean-topics.py

Every English prompt is distinct (a recall card shows it and asks for the Korean).
"""
import os
import re

import koroman

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (unit id, title, [(korean, english, note)])
TOPICS = [
    ("numbers", "Numbers (both systems)", [
        ("영", "zero", "Sino-Korean; 공 in phone numbers"), ("일", "one (Sino-Korean)", "dates, money, minutes, floors"),
        ("이", "two (Sino-Korean)", ""), ("삼", "three (Sino-Korean)", ""), ("사", "four (Sino-Korean)", ""),
        ("오", "five (Sino-Korean)", ""), ("육", "six (Sino-Korean)", "유 in 유월, June"), ("칠", "seven (Sino-Korean)", ""),
        ("팔", "eight (Sino-Korean)", ""), ("구", "nine (Sino-Korean)", ""), ("십", "ten (Sino-Korean)", "시 in 시월, October"),
        ("이십", "twenty (Sino-Korean)", ""), ("백", "hundred", ""), ("천", "thousand", ""),
        ("만", "ten thousand", "Korean counts large numbers in ten thousands"), ("백만", "million", "a hundred ten-thousands"),
        ("하나", "one (native Korean)", "counting things, hours, age; 한 before a counter"),
        ("둘", "two (native Korean)", "두 before a counter"), ("셋", "three (native Korean)", "세 before a counter"),
        ("넷", "four (native Korean)", "네 before a counter"), ("다섯", "five (native Korean)", ""),
        ("여섯", "six (native Korean)", ""), ("일곱", "seven (native Korean)", ""), ("여덟", "eight (native Korean)", ""),
        ("아홉", "nine (native Korean)", ""), ("열", "ten (native Korean)", ""), ("스물", "twenty (native Korean)", "스무 before a counter"),
        ("서른", "thirty (native Korean)", ""), ("마흔", "forty (native Korean)", ""), ("쉰", "fifty (native Korean)", ""),
        ("한 개", "one thing", "개 counts things"), ("두 명", "two people", "명 counts people"),
        ("세 시", "three o'clock", "hours take native numbers"), ("삼십 분", "thirty minutes", "minutes take Sino-Korean numbers"),
    ]),
    ("family", "Family", [
        ("가족", "family", ""), ("부모님", "parents", "honorific"), ("아버지", "father", ""), ("어머니", "mother", ""),
        ("아빠", "dad", ""), ("엄마", "mom", ""), ("형", "older brother (of a man)", ""), ("오빠", "older brother (of a woman)", ""),
        ("누나", "older sister (of a man)", ""), ("언니", "older sister (of a woman)", ""), ("동생", "younger sibling", ""),
        ("남동생", "younger brother", ""), ("여동생", "younger sister", ""), ("할아버지", "grandfather", ""),
        ("할머니", "grandmother", ""), ("아들", "son", ""), ("딸", "daughter", ""), ("남편", "husband", ""), ("아내", "wife", ""),
        ("삼촌", "uncle (father's brother)", ""), ("이모", "aunt (mother's sister)", ""), ("고모", "aunt (father's sister)", ""),
        ("사촌", "cousin", ""), ("손자", "grandson", ""), ("손녀", "granddaughter", ""), ("아기", "baby", ""),
        ("형제", "brothers; siblings", ""), ("자매", "sisters", ""), ("친척", "relatives", ""), ("결혼하다", "to marry", ""),
    ]),
    ("body", "The body", [
        ("몸", "body", ""), ("머리", "head", "also the hair on it"), ("머리카락", "hair (on the head)", ""), ("얼굴", "face", ""),
        ("눈", "eye", "also snow"), ("코", "nose", ""), ("입", "mouth", ""), ("귀", "ear", ""), ("이", "tooth", "also 치아"),
        ("입술", "lips", ""), ("혀", "tongue", ""), ("목", "neck; throat", ""), ("어깨", "shoulder", ""), ("팔", "arm", ""),
        ("손", "hand", ""), ("손가락", "finger", ""), ("가슴", "chest", ""), ("배", "belly; stomach", "also a pear, and a boat"),
        ("등", "back (of the body)", ""), ("허리", "waist; lower back", ""), ("다리", "leg", "also a bridge"), ("무릎", "knee", ""),
        ("발", "foot", ""), ("발가락", "toe", ""), ("피부", "skin", ""), ("뼈", "bone", ""), ("피", "blood", ""),
        ("심장", "heart (the organ)", ""), ("이마", "forehead", ""), ("볼", "cheek", ""), ("눈썹", "eyebrow", ""),
    ]),
    ("colours", "Colours", [
        ("색", "colour", "also 색깔"), ("빨간색", "red", ""), ("주황색", "orange (colour)", ""), ("노란색", "yellow", ""),
        ("초록색", "green", ""), ("파란색", "blue", ""), ("남색", "navy; indigo", ""), ("보라색", "purple", ""),
        ("분홍색", "pink", ""), ("갈색", "brown", ""), ("검은색", "black", ""), ("하얀색", "white", ""), ("회색", "grey", ""),
        ("금색", "gold (colour)", ""), ("은색", "silver (colour)", ""), ("하늘색", "sky blue", ""), ("연두색", "light green", ""),
        ("빨갛다", "to be red", ""), ("파랗다", "to be blue", ""), ("노랗다", "to be yellow", ""), ("하얗다", "to be white", ""),
        ("까맣다", "to be black", ""),
    ]),
    ("time", "Time and days", [
        ("시간", "time; hour (duration)", ""), ("분", "minute", ""), ("초", "second (of time)", ""), ("오늘", "today", ""),
        ("어제", "yesterday", ""), ("내일", "tomorrow", ""), ("모레", "the day after tomorrow", ""),
        ("그저께", "the day before yesterday", ""), ("아침", "morning; breakfast", ""), ("점심", "noon; lunch", ""),
        ("저녁", "evening; dinner", ""), ("밤", "night", ""), ("낮", "daytime", ""), ("새벽", "dawn", ""), ("주", "week", ""),
        ("주말", "weekend", ""), ("월요일", "Monday", ""), ("화요일", "Tuesday", ""), ("수요일", "Wednesday", ""),
        ("목요일", "Thursday", ""), ("금요일", "Friday", ""), ("토요일", "Saturday", ""), ("일요일", "Sunday", ""),
        ("달", "month (as a span); moon", ""), ("월", "month (in dates)", "삼월, March"), ("년", "year (in dates)", ""),
        ("봄", "spring", ""), ("여름", "summer", ""), ("가을", "autumn", ""), ("겨울", "winter", ""), ("지금", "now", ""),
        ("나중에", "later", ""), ("매일", "every day", ""), ("오전", "morning; a.m.", ""), ("오후", "afternoon; p.m.", ""), ("몇 시예요", "What time is it?", ""),
    ]),
    ("transport", "Getting around", [
        ("교통", "traffic; transport", ""), ("버스", "bus", ""), ("지하철", "subway", ""), ("기차", "train", ""),
        ("택시", "taxi", ""), ("비행기", "airplane", ""), ("자전거", "bicycle", ""), ("자동차", "automobile", ""),
        ("차", "car; vehicle", "also tea"), ("오토바이", "motorcycle", ""), ("역", "station", ""), ("정류장", "bus stop", ""),
        ("공항", "airport", ""), ("항구", "port; harbour", ""), ("표", "ticket", ""), ("교통카드", "transit card", ""),
        ("운전하다", "to drive", ""), ("타다", "to ride; to get on", ""), ("내리다", "to get off", ""),
        ("갈아타다", "to transfer (to another line)", ""), ("출구", "exit", ""), ("입구", "entrance", ""),
        ("도착", "arrival", ""), ("출발", "departure", ""), ("걷다", "to walk", ""), ("주차장", "car park", ""), ("트럭", "truck", ""),
    ]),
    ("directions", "Directions", [
        ("방향", "direction", ""), ("왼쪽", "left", ""), ("오른쪽", "right (side)", ""), ("앞", "front; in front of", ""),
        ("뒤", "behind", ""), ("위", "above; on top", ""), ("아래", "below; under", ""), ("옆", "beside; next to", ""),
        ("안", "inside", ""), ("밖", "outside", ""), ("사이", "between", ""), ("근처", "nearby; the neighbourhood", ""),
        ("건너편", "across (the street)", ""), ("동쪽", "east", ""), ("서쪽", "west", ""), ("남쪽", "south", ""),
        ("북쪽", "north", ""), ("여기", "here", ""), ("거기", "there (near you)", ""), ("저기", "over there", ""),
        ("어디", "where", ""), ("똑바로", "straight", ""), ("쭉 가세요", "Go straight on.", ""),
        ("오른쪽으로 도세요", "Turn right.", ""), ("멀다", "to be far", ""), ("가깝다", "to be near", ""),
        ("길", "road; way", ""), ("사거리", "crossroads", ""), ("모퉁이", "corner", ""), ("지도", "map", ""),
    ]),
    ("weather", "Weather", [
        ("날씨", "weather", ""), ("비", "rain", ""), ("눈", "snow", "also an eye"), ("바람", "wind", ""), ("구름", "cloud", ""),
        ("햇빛", "sunlight", ""), ("하늘", "sky", ""), ("맑다", "to be clear; sunny", ""), ("흐리다", "to be cloudy", ""),
        ("덥다", "to be hot (weather)", ""), ("춥다", "to be cold (weather)", ""), ("따뜻하다", "to be warm", ""),
        ("시원하다", "to be cool; refreshing", ""), ("비가 오다", "to rain", ""), ("눈이 오다", "to snow", ""),
        ("바람이 불다", "the wind blows", ""), ("천둥", "thunder", ""), ("번개", "lightning", ""), ("태풍", "typhoon", ""),
        ("안개", "fog", ""), ("장마", "the rainy season", "late June to July"), ("우산", "umbrella", ""),
        ("기온", "air temperature", ""), ("일기예보", "weather forecast", ""), ("습하다", "to be humid", ""),
        ("건조하다", "to be dry", ""), ("소나기", "rain shower", ""), ("무지개", "rainbow", ""),
    ]),
    ("shopping", "Shopping", [
        ("시장", "market", ""), ("가게", "shop", ""), ("백화점", "department store", ""), ("편의점", "convenience store", ""),
        ("마트", "supermarket", ""), ("돈", "money", ""), ("원", "won (currency)", ""), ("가격", "price", ""),
        ("얼마예요", "How much is it?", ""), ("비싸다", "to be expensive", ""), ("싸다", "to be cheap", ""), ("사다", "to buy", ""),
        ("팔다", "to sell", ""), ("카드", "card", ""), ("현금", "cash", ""), ("영수증", "receipt", ""), ("할인", "discount", ""),
        ("봉투", "carrier bag; envelope", ""), ("옷", "clothes", ""), ("신발", "shoes", ""), ("가방", "bag", ""),
        ("모자", "hat", ""), ("사이즈", "size", ""), ("입어 봐도 돼요", "May I try it on?", ""),
        ("이거 주세요", "I'll take this one.", ""), ("교환", "exchange", ""), ("환불", "refund", ""),
        ("계산", "paying; the checkout", ""), ("손님", "customer; guest", ""), ("점원", "shop assistant", ""), ("무료", "free of charge", ""), ("세일", "sale", ""),
    ]),
    ("restaurant", "At a restaurant", [
        ("식당", "restaurant", ""), ("메뉴", "menu", ""), ("주문", "order", ""), ("주문할게요", "I'd like to order.", ""),
        ("물 좀 주세요", "Some water, please.", ""), ("이거 하나 주세요", "One of these, please.", ""),
        ("맛있어요", "It's delicious.", ""), ("맵다", "to be spicy", ""), ("안 맵게 해 주세요", "Not spicy, please.", ""),
        ("짜다", "to be salty", ""), ("달다", "to be sweet", ""), ("배고파요", "I'm hungry.", ""), ("배불러요", "I'm full.", ""),
        ("계산서 주세요", "The bill, please.", ""), ("여기요", "Excuse me! (calling the staff)", ""),
        ("잘 먹겠습니다", "(said before a meal)", "thanks for the food about to be eaten"),
        ("잘 먹었습니다", "(said after a meal)", "thanks for the food eaten"), ("포장", "takeaway; wrapping", ""),
        ("포장해 주세요", "To take away, please.", ""), ("몇 분이세요", "How many are you?", "asked at the door"),
        ("두 명이에요", "There are two of us.", ""), ("숟가락", "spoon", ""), ("젓가락", "chopsticks", ""), ("그릇", "bowl", ""),
        ("컵", "cup", ""), ("반찬", "side dishes", "free and refilled"), ("추천", "recommendation", ""),
        ("뭐가 맛있어요", "What's good here?", ""), ("물수건", "wet towel", ""), ("맛없어요", "It doesn't taste good.", ""), ("앞접시", "small plate (for sharing)", ""),
    ]),
]


# Where koroman's rules miss: checked against the Revised Romanization's own rules.
OVERRIDES = {
    "월요일": "woryoil",  # pronounced 워료일: ㄹ links over; no ㄴ is inserted
    "목요일": "mogyoil",  # pronounced 모교일
    "일요일": "iryoil",  # pronounced 이료일
    "맛없어요": "madeopseoyo",  # pronounced 마덥써요: 없 starts a new word, so ㅅ closes as ㄷ first
    "백화점": "baekhwajeom",  # in nouns RR writes the ㅎ after ㄱ (rule 1.4 of the Romanization)
    "따뜻하다": "ttatteutada",  # ㅅ (closing as ㄷ) and ㅎ make ㅌ in a predicate, written t
}


def romanize(korean):
    return OVERRIDES.get(korean) or koroman.romanize(korean)


def main():
    rows = []
    for unit, _, words in TOPICS:
        for korean, english, note in words:
            identifier = f"{unit}-" + re.sub(r"[^a-z0-9]+", "-", romanize(korean).lower()).strip("-")
            rows.append([identifier, unit, korean, romanize(korean), english, note, unit])
    assert len(rows) >= 300, len(rows)
    assert len({r[0] for r in rows}) == len(rows), "ids"
    english = [r[4].lower() for r in rows]
    assert len(set(english)) == len(english), sorted(e for e in english if english.count(e) > 1)
    folder = os.path.join(ROOT, "Decks", "korean-topics")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "items.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tunit\tkorean\tromanization\tenglish\tnote\ttags\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    units = "\n".join(f"  - {{id: {unit}, title: \"{title}\"}}" for unit, title, _ in TOPICS)
    with open(os.path.join(folder, "deck.yaml"), "w", encoding="utf-8") as f:
        f.write(f"""# Generated by scripts/decks/generate-korean-topics.py (romanization by koroman, Revised
# Romanization with its sound changes). Written for Maeil; see Decks/ATTRIBUTION.md.
format: 1
id: korean-topics
name: Korean Topics
kind: word
description: >-
  {len(rows)} everyday Korean words and phrases in {len(TOPICS)} topics, from numbers in both
  systems to ordering at a restaurant, Korean to English and back.
speak: korean
fields:
  - {{name: korean, language: ko}}
  - {{name: romanization, language: en}}
  - {{name: english, language: en}}
  - {{name: note, language: en}}
templates:
  - name: recognize
    front: korean
    hints: romanization
    back: [romanization, english, note]
  - name: recall
    front: english
    back: [korean, romanization]
    typed: korean
preset:
  scheduler: fsrs
  new_per_day: 10
  learning_steps: 1m 10m
  desired_retention: 0.9
units:
{units}
items: items.tsv
""")
    print(f"{len(rows)} words in {len(TOPICS)} topics")


if __name__ == "__main__":
    main()
