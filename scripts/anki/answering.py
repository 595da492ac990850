"""One answer at a time through Anki's v3 scheduler, as the test scripts study: the next card
Anki queues, rated at random with Again 15 %, Hard 15 %, Good 55 %, Easy 15 %."""

import sys


def answer_next(col, rng):
    """Answers the next queued card; False when Anki has nothing to show."""
    from anki.scheduler.v3 import CardAnswer

    queued = queued_cards(col)
    if not queued:
        return False
    card = col.get_card(queued[0].card.id)
    card.start_timer()
    ratings = [CardAnswer.AGAIN, CardAnswer.HARD, CardAnswer.GOOD, CardAnswer.EASY]
    rating = rng.choices(ratings, weights=[0.15, 0.15, 0.55, 0.15])[0]
    col.sched.answer_card(col.sched.build_answer(card=card, states=queued[0].states, rating=rating))
    return True


def answer_next_good(col):
    """Answers the next queued card Good; its id, or None when Anki has nothing to show."""
    from anki.scheduler.v3 import CardAnswer

    queued = queued_cards(col)
    if not queued:
        return None
    card = col.get_card(queued[0].card.id)
    card.start_timer()
    col.sched.answer_card(col.sched.build_answer(card=card, states=queued[0].states, rating=CardAnswer.GOOD))
    return card.id


def queued_cards(col):
    """The head of Anki's queue. Anki 26.9.3 now and then finds a queued card changed behind
    its cached queue ("bug: card modified without updating queue"; seen once in several
    thousand simulated days under a moved clock) and refuses until the queue is rebuilt. A
    person restarts Anki; this reopens the collection, which does the same, and says so."""
    from anki.errors import InvalidInput

    try:
        return col.sched.get_queued_cards(fetch_limit=1).cards
    except InvalidInput as error:
        if "modified without updating queue" not in str(error):
            raise
        print("answering.py: Anki's queue was stale (%s); collection reopened" % error, file=sys.stderr)
        col.close()
        col.reopen()
        return col.sched.get_queued_cards(fetch_limit=1).cards
