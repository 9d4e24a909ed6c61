"""The words only Opendaum uses: its field labels and value words (``TERMS``) and its
refusal sentences (``MESSAGES``), declared on its specs and registered by the registry into
the one vocabulary (koloda/engine/terms.py) and the catalog (koloda/engine/messages.py)."""

from __future__ import annotations

from koloda.ranks import RANKS

#: labels only Opendaum needs (key → (English, Russian)), Russian from the book (seed "51.")
TERMS: dict[str, tuple[str, str]] = {
    # «В этом случае козырем является последняя по сдаче карта»
    "trump_card_in_dealer_hand": ("the trump card is the dealer's",
                                  "козырь — последняя по сдаче карта"),
    # the engine's vocabulary says these already; declared here as well, so that the game
    # says every word only it uses (the same words: registering them again changes nothing)
    "deal_size": ("cards each", "карт на руках"),
    "schedule_position": ("deal of schedule", "сдача по расписанию"),
    "schedule_length": ("deals in the match", "сдач в партии"),
    "final_deal": ("final deal", "последняя сдача"),
    # the hook rule (koloda/rules/opendaum.en.md §Precisely 23): «третий не имеет права …»
    "forbidden_bid": ("forbidden bid", "запрещённый заказ"),
    # a shakha's two modes: «по желанию игрока бьет любую карту» / «за простую»
    "wild": ("wild", "как шаха"),
    "plain": ("plain", "за простую"),
    # the ranks (разряды) of Opendaum for three with 33 cards, as a result names them
    "rank": ("rank", "разряд"),
    **{f"rank_{r.id}": (r.en, r.ru) for r in RANKS},
    "bids": ("bid", "заказ"),
    "totals": ("total", "очки"),
    "schedule": ("schedule", "расписание"),
}

#: the Opendaum verbs (as pressed, then as a log says it: «заказывает»); ``wild``/``plain`` and
#: ``with`` are the shakhi's words after a played card
VERBS: dict[str, tuple[str, ...]] = {
    "bid": ("bid", "заказ", "bids", "заказывает"),
    "wild": ("wild", "как шаха"),
    "plain": ("plain", "за простую"),
    "with": ("with", "картой"),
}

#: refusals only Opendaum gives (message key → (English, Russian) templates)
MESSAGES: dict[str, tuple[str, str]] = {
    "opendaum_action": ("{action} is not an Opendaum action: bid N, then play C",
                        "{action} — не ход опендаума: сначала заказ (bid N), потом карта "
                        "(play C)"),
    "bidding_first": ("the bidding comes first: seat {seat} bids 0..{size} (bid N)",
                      "сначала заказ: место {seat} заказывает от 0 до {size} (bid N)"),
    "bid_range": ("bid {n}: a bid is 0..{size}, the cards in your hand",
                  "заказ {n}: заказывают от 0 до {size} — столько, сколько карт на руках"),
    "hook_rule": ("hook rule: the dealer, bidding last, may not bid {n}: the bids would add up "
                  "to {total}, the cards each player holds",
                  "правило крюка: сдающий заказывает последним и не может заказать {n}: "
                  "заказы в сумме дали бы {total} — столько карт у каждого"),
    "bidding_over": ("the bidding is over: play a card (play C)",
                     "заказы сделаны: ходите картой (play C)"),
    "one_card_at_a_time": ("play one card at a time (play C, a shakha as play C wild / "
                           "play C plain)",
                           "ходят по одной карте (play C; шаху — play C wild или "
                           "play C plain)"),
    "deck_for_players": ("with {players} players the deck is {decks}",
                         "при {players:игроке|игроках|игроках} колода — {decks}"),
    "start_deal_schedule": ("option start_deal={start}: this match has {deals} deals; "
                            "allowed: 0..{last}",
                            "параметр start_deal={start}: в этой партии "
                            "{deals:сдача|сдачи|сдач}; допустимо: от 0 до {last}"),
}
