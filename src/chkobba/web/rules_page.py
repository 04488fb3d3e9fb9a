"""The rules pages (``/rules/NAME``): each game's rules from the data ``chkobba rules NAME``
prints (:mod:`chkobba.rules_command`), in English, French and Arabic.

The English words are the command's own (:data:`chkobba.fishing.rules.OPTION_HELP`,
:data:`chkobba.fishing.rules.PRESET_DESCRIPTIONS`, :data:`chkobba.fishing.scoring.POINT_RULES` and
Touti's :data:`chkobba.touti.rules.OPTION_HELP`); this module holds only their
translations, keyed by option, point rule and preset name, and the JSON the page draws.
"""

from __future__ import annotations

from typing import Any, Final

from chkobba.fishing.rules import CHKOBBA, OPTION_HELP, PRESET_DESCRIPTIONS, PRESETS
from chkobba.fishing.scoring import POINT_KEYS, POINT_RULES
from chkobba.rules_command import _value, preset_detail
from chkobba.touti import rules as touti_rules
from chkobba.touti.cli import rules_json as touti_rules_json
from chkobba.touti.cli import rules_lines as touti_rules_lines

LANGUAGES: Final = ("en", "fr", "ar")
"""The pages' languages (``static/i18n.js``)."""

TOUTI: Final = "touti"
"""Touti's name among the rules pages: not a preset of the Chkobba engine (``chkobba rules
touti``)."""

OPTION_WORDS: Final[dict[str, dict[str, str]]] = {
    "target": {
        "fr": "points qui terminent la partie",
        "ar": "النقاط التي تنهي المباراة",
    },
    "may_drop_capturing_card": {
        "fr": "une carte qui peut prendre peut être posée à la place",
        "ar": "يجوز وضع ورقة تستطيع الأكل بدل الأكل بها",
    },
    "cut_choice": {
        "fr": "celui qui coupe garde la carte coupée ou la met sur la table (sinon le "
        "donneur distribue simplement)",
        "ar": "القاطع يحتفظ بالورقة المقطوعة أو يضعها على الطاولة (وإلا فالموزّع يوزّع فقط)",
    },
    "void_deal_count": {
        "fr": "ce nombre de cartes d'un même rang sur la table distribuée annule la donne",
        "ar": "هذا العدد من أوراق رتبة واحدة على الطاولة الموزّعة يلغي التوزيع",
    },
    "max_capture_cards": {
        "fr": "au plus ce nombre de cartes de la table par prise (0 : sans limite)",
        "ar": "على الأكثر هذا العدد من أوراق الطاولة في الأكلة الواحدة (0: بلا حدّ)",
    },
    "fewest_cards": {
        "fr": "seules les prises du moins de cartes de la table sont permises",
        "ar": "لا تجوز إلا الأكلات التي تأخذ أقلّ عدد من أوراق الطاولة",
    },
    "void_deal_ranks": {
        "fr": "les rangs qui comptent pour annuler la donne",
        "ar": "الرتب التي تُحسب لإلغاء التوزيع",
    },
    "distinct_table": {
        "fr": "pas deux cartes d'un même rang sur la table distribuée (un doublon va sous "
        "le talon)",
        "ar": "لا ورقتين من رتبة واحدة على الطاولة الموزّعة (المكرّرة توضع تحت الكومة)",
    },
    "hand_size": {
        "fr": "cartes distribuées à chaque joueur à chaque donne",
        "ar": "عدد الأوراق الموزّعة على كل لاعب في كل توزيع",
    },
    "table_size": {
        "fr": "cartes posées sur la table au début de la manche",
        "ar": "عدد الأوراق الموضوعة على الطاولة في بداية الجولة",
    },
    "seatings": {
        "fr": "les tables possibles : 2, 3, 4, 6 joueurs, 2 contre 2 (2v2)",
        "ar": "طرق الجلوس: 2 أو 3 أو 4 أو 6 لاعبين، أو 2 ضد 2 (2v2)",
    },
    "capture_match": {
        "fr": "une carte prend une carte de la table de sa valeur",
        "ar": "الورقة تأكل ورقة من الطاولة بقيمتها",
    },
    "capture_sum": {
        "fr": "une carte prend des cartes de la table dont la somme fait sa valeur",
        "ar": "الورقة تأكل أوراقًا من الطاولة مجموعها يساوي قيمتها",
    },
    "capture_total": {
        "fr": "une carte prend des cartes de la table qui font ce total avec elle (0 : aucune)",
        "ar": "الورقة تأكل أوراقًا من الطاولة تكمل معها هذا المجموع (0: لا شيء)",
    },
    "matching_priority": {
        "fr": "une carte qui peut prendre une carte de sa valeur ne peut pas prendre une somme",
        "ar": "الورقة التي تستطيع أكل ورقة بقيمتها لا يجوز لها أكل مجموع",
    },
    "ace_takes_all": {
        "fr": "un as prend toute la table",
        "ar": "الآس يأكل الطاولة كلها",
    },
    "ace_sweep_scores": {
        "fr": "le balayage de l'as compte comme un point de balayage",
        "ar": "كنس الآس للطاولة يُحسب نقطة كنس",
    },
    "scoring": {
        "fr": "les points d'une manche",
        "ar": "نقاط الجولة",
    },
    "all_coins_wins": {
        "fr": "prendre les dix deniers gagne la partie d'un coup",
        "ar": "من يأخذ الدناري العشرة يربح المباراة فورًا",
    },
    "lowest_wins": {
        "fr": "une fois l'objectif atteint, le plus petit total (strictement) gagne",
        "ar": "عند بلوغ الهدف يربح صاحب أقلّ مجموع (قطعًا)",
    },
    "wild_seven_keeps_value": {
        "fr": "le 7♠ rendu joker par une déclaration garde sa valeur pour la manche",
        "ar": "السبعة ♠ التي صارت جوكرًا بإعلان تحتفظ بقيمتها طوال الجولة",
    },
    "deck": {
        "fr": "le jeu dont on nomme les figures (french, italian, spanish) : affichage seulement",
        "ar": "الورق الذي تُسمّى وجوهه (french، italian، spanish): للعرض فقط",
    },
}
"""The Chkobba family's options (:data:`chkobba.fishing.rules.OPTION_HELP`) in French and Arabic."""

TOUTI_OPTION_WORDS: Final[dict[str, dict[str, str]]] = {
    "target": {
        "fr": "points de partie qui gagnent la partie",
        "ar": "نقاط المباراة التي تربحها",
    },
    "kaddour": {
        "fr": "un joueur sans la couleur demandée qui ne peut pas surcouper peut se défausser "
        "au lieu de sous-couper",
        "ar": "اللاعب الذي لا يملك اللون المطلوب ولا يستطيع القطع بحكم أعلى يجوز له أن يرمي "
        "ورقة بدل القطع بحكم أدنى",
    },
    "all_pass": {
        "fr": "quatre passes : le même donneur redistribue, le suivant distribue, ou le même "
        "donneur encore deux fois puis le suivant",
        "ar": "أربع تمريرات: يعيد الموزّع نفسه التوزيع، أو يوزّع التالي، أو يوزّع الموزّع "
        "نفسه مرتين أخريين ثم التالي",
    },
    "failure": {
        "fr": "un contrat chuté : les adversaires marquent l'enchère, ou l'équipe du déclarant "
        "la perd",
        "ar": "عقد ساقط: يسجّل الخصوم قيمة المزايدة، أو يخسرها فريق صاحب العقد",
    },
    "min_trump_length": {
        "fr": "cartes de la couleur que le déclarant doit tenir pour la nommer atout",
        "ar": "عدد أوراق اللون التي يجب أن يملكها صاحب العقد ليسمّيه حُكمًا",
    },
    "talk": {
        "fr": "kalyado : enchères seulement ; semi : alla, macharich, zadtak ; parle : demander "
        "au partenaire sa main (ask:SUJET), qui répond vrai",
        "ar": "كاليادو: مزايدات فقط؛ نصف: ألّا، مشاريش، زدتك؛ بارلي: يسأل اللاعب شريكه عن "
        "يده (ask:TOPIC) فيجيب بصدق",
    },
    "zero_point_redeal": {
        "fr": "une main sans point de carte peut demander une nouvelle donne à son premier "
        "tour de parole",
        "ar": "اليد التي لا نقاط ورق فيها يجوز لها طلب إعادة التوزيع في أول دور كلام لها",
    },
    "claim": {
        "fr": "Tarraq, réclamer le reste : une réclamation fausse est pardonnée, donne le reste "
        "aux adversaires (a), ou le dernier pli avec les trois meilleures cartes (b)",
        "ar": "طرّاق، المطالبة بالباقي: المطالبة الخاطئة تُغتفر، أو تعطي الباقي للخصوم (a)، "
        "أو الأكلة الأخيرة بأفضل ثلاث أوراق (b)",
    },
}
"""Touti's options (:data:`chkobba.touti.rules.OPTION_HELP`) in French and Arabic."""

POINT_RULE_WORDS: Final[dict[str, dict[str, str]]] = {
    "cards": {"fr": "strictement le plus de cartes", "ar": "أكثر الأوراق (قطعًا)"},
    "coins": {
        "fr": "strictement le plus de deniers (carreaux)",
        "ar": "أكثر الدناري (♦) قطعًا",
    },
    "sevens": {
        "fr": "strictement le plus de 7, puis parmi les ex æquo strictement le plus de 6",
        "ar": "أكثر السبعات قطعًا، ثم عند التعادل أكثر الستّات قطعًا",
    },
    "primiera": {
        "fr": "strictement la meilleure primiera (meilleure carte par couleur : 7=21, 6=18, "
        "A=16, 5=15, 4=14, 3=13, 2=12, Q/J/K=10 ; couleur manquante 0)",
        "ar": "أفضل بريميرا قطعًا (أفضل ورقة من كل لون: 7=21، 6=18، A=16، 5=15، 4=14، "
        "3=13، 2=12، Q/J/K=10؛ اللون الناقص 0)",
    },
    "seven_of_coins": {
        "fr": "avoir le 7 de deniers (7♦)",
        "ar": "امتلاك سبعة الديناري (7♦)",
    },
    "sweeps": {
        "fr": "1 par balayage de la table (pas au dernier coup de la manche)",
        "ar": "نقطة لكل كنس للطاولة (إلا في آخر لعبة من الجولة)",
    },
    "king_of_coins": {
        "fr": "avoir le roi de deniers (K♦)",
        "ar": "امتلاك ملك الديناري (K♦)",
    },
    "napola": {
        "fr": "A, 2, 3 de deniers : 3 points, +1 par denier consécutif suivant ; les dix : 10",
        "ar": "الآس و2 و3 من الديناري: 3 نقاط، ونقطة لكل ديناري متتالٍ بعدها؛ العشرة: 10",
    },
    "ponino": {
        "fr": "un joueur qui prend les quatre cavaliers (J) double les points de balayage "
        "de son camp",
        "ar": "لاعب يأخذ الفرسان الأربعة (J) يضاعف نقاط الكنس لفريقه",
    },
    "coin_faces": {
        "fr": "l'as, le 2 et le 3 de deniers marquent leur valeur (1, 2, 3)",
        "ar": "الآس و2 و3 من الديناري تسجّل قيمتها (1، 2، 3)",
    },
    "frac": {
        "fr": "1 par as, Q, J et K pris (16 par manche)",
        "ar": "نقطة لكل آس وQ وJ وK مأخوذة (16 في الجولة)",
    },
    "frac_tie": {
        "fr": "si les points frac sont à égalité en tête, 1 à qui tient le K♦",
        "ar": "عند التعادل في الصدارة بنقاط الفراك، نقطة لمن يملك K♦",
    },
    "declarations": {
        "fr": "mains déclarées à chaque donne : 9 ou moins en tout 3 points (cirulla), trois "
        "cartes égales 10 (cirullone) ; le 7♠ est joker",
        "ar": "أيدٍ تُعلَن في كل توزيع: مجموع 9 أو أقل 3 نقاط (cirulla)، ثلاث أوراق "
        "متساوية 10 (cirullone)؛ السبعة ♠ جوكر",
    },
}
"""The point rules (:data:`chkobba.fishing.scoring.POINT_RULES`) in French and Arabic."""

DESCRIPTION_WORDS: Final[dict[str, dict[str, str]]] = {
    "chkobba": {
        "fr": "Chkobba tunisienne : choix à la coupe, la prise d'une carte égale avant "
        "l'addition, points kārṭa, dīnārī, barmīla, sabʿa l-ḥayya et chkobba, partie en 21.",
        "ar": "الشكبّة التونسية: اختيار عند القطع، الأكل بالورقة المساوية قبل الجمع، نقاط "
        "الكارطة والديناري والبرميلة وسبعة الحيّة والشكبّة، المباراة إلى 21.",
    },
    "scopa": {
        "fr": "Scopa italienne : 3 cartes chacun et 4 sur la table, 3 ou 4 rois annulent la "
        "donne ; une prise prend une ou deux cartes, le moins possible ; 2, 3, 4 ou 6 joueurs "
        "ou 2 contre 2 ; carte, denari, settebello, primiera et scope ; en 11.",
        "ar": "السكوبا الإيطالية: 3 أوراق لكل لاعب و4 على الطاولة، 3 أو 4 ملوك تلغي التوزيع؛ "
        "الأكلة تأخذ ورقة أو ورقتين، وأقلّ ما يمكن؛ 2 أو 3 أو 4 أو 6 لاعبين أو 2 ضد 2؛ "
        "carte وdenari وsettebello وprimiera وscope؛ إلى 11.",
    },
    "scopa-many": {
        "fr": "Scopa aux prises de plusieurs cartes : une addition prend autant de cartes "
        "qu'il faut, pas forcément le moins.",
        "ar": "سكوبا بأكلات متعددة الأوراق: الجمع يأخذ أي عدد من الأوراق، دون إلزام بالأقل.",
    },
    "scopone": {
        "fr": "Scopone : 2 contre 2, 9 cartes chacun et 4 sur la table, pas d'autre donne ; "
        "les points de la Scopa, en 11.",
        "ar": "سكوبوني: 2 ضد 2، 9 أوراق لكل لاعب و4 على الطاولة، بلا توزيع آخر؛ نقاط "
        "السكوبا، إلى 11.",
    },
    "scopone-scientifico": {
        "fr": "Scopone scientifico : 2 contre 2, 10 cartes chacun, table vide ; le joueur "
        "après le donneur commence.",
        "ar": "سكوبوني شينتيفيكو: 2 ضد 2، 10 أوراق لكل لاعب، طاولة فارغة؛ يبدأ اللاعب الذي "
        "بعد الموزّع.",
    },
    "scopa-di-quindici": {
        "fr": "Scopa di quindici : une carte prend des cartes de la table dont les valeurs "
        "et la sienne font 15.",
        "ar": "سكوبا الخمسة عشر: الورقة تأكل أوراقًا من الطاولة مجموعها مع قيمتها 15.",
    },
    "escoba": {
        "fr": "Escoba (Espagne) : la Scopa standard (une ou deux cartes, le moins possible) en "
        "mots espagnols : cartas, oros, siete de velo, primera et escobas ; en 11.",
        "ar": "إسكوبا (إسبانيا): السكوبا العادية (ورقة أو ورقتان، أقلّ ما يمكن) بالكلمات "
        "الإسبانية: cartas وoros وsiete de velo وprimera وescobas؛ إلى 11.",
    },
    "escoba-del-15": {
        "fr": "Escoba del 15 (Espagne) : prises d'autant de cartes qu'on veut faisant 15 avec "
        "la carte jouée ; cartas, oros, siete de velo, primera et escobas ; en 11.",
        "ar": "إسكوبا الخمسة عشر (إسبانيا): أكل أي عدد من الأوراق يكمل 15 مع الورقة "
        "الملعوبة؛ cartas وoros وsiete de velo وprimera وescobas؛ إلى 11.",
    },
    "cirulla": {
        "fr": "Cirulla : prises par valeur égale, par somme et par quinze ; les mains de 9 ou "
        "moins (3 points) et trois cartes égales (10) sont déclarées à chaque donne, "
        "automatiquement ; le 7♠ est joker et garde sa nouvelle valeur pour la manche.",
        "ar": "تشيرولا: أكل بالقيمة المساوية وبالمجموع وبالخمسة عشر؛ الأيدي التي مجموعها 9 "
        "أو أقل (3 نقاط) وثلاث أوراق متساوية (10) تُعلَن في كل توزيع تلقائيًا؛ السبعة ♠ "
        "جوكر وتحتفظ بقيمتها الجديدة طوال الجولة.",
    },
    "asso-piglia-tutto": {
        "fr": "Asso piglia tutto : un as prend toute la table (option ace_sweep_scores : cela "
        "compte comme une scopa).",
        "ar": "أسّو بيليا توتّو: الآس يأكل الطاولة كلها (الخيار ace_sweep_scores: يُحسب "
        "سكوبا).",
    },
    "re-bello": {
        "fr": "Re bello : la Scopa, et le roi de deniers (K♦) marque 1 aussi.",
        "ar": "ري بيلّو: السكوبا، وملك الديناري (K♦) يسجّل نقطة أيضًا.",
    },
    "napola": {
        "fr": "Napola : la Scopa, et A-2-3 de deniers marquent 3, un de plus par denier "
        "consécutif suivant, les dix 10 (option all_coins_wins : la partie d'un coup).",
        "ar": "نابولا: السكوبا، والآس و2 و3 من الديناري تسجّل 3، ونقطة لكل ديناري متتالٍ "
        "بعدها، والعشرة كلها 10 (الخيار all_coins_wins: المباراة فورًا).",
    },
    "ponino": {
        "fr": "Il ponino : la Scopa, et un joueur qui prend les quatre cavaliers (J) double "
        "les scope de son camp.",
        "ar": "إل بونينو: السكوبا، واللاعب الذي يأخذ الفرسان الأربعة (J) يضاعف سكوبي فريقه.",
    },
    "scopone-de-trente": {
        "fr": "Scopone de Trente : le Scopone en 21 ; l'as, le 2 et le 3 de deniers ajoutent "
        "leur valeur ; les dix deniers gagnent d'un coup.",
        "ar": "سكوبوني دي ترينتي: السكوبوني إلى 21؛ الآس و2 و3 من الديناري تضيف قيمتها؛ "
        "الدناري العشرة تربح فورًا.",
    },
    "scopa-a-perdere": {
        "fr": "Scopa a perdere : une fois qu'un camp atteint 21, celui qui a le plus de points "
        "perd (le plus petit total, strictement, gagne).",
        "ar": "سكوبا آ بيرديري: حين يبلغ فريق 21، يخسر صاحب أكثر النقاط (يربح الأقل قطعًا).",
    },
    "scopa-frac": {
        "fr": "Scopa Frac : seuls A, Q, J et K marquent, 1 chacun ; une égalité 8-8 va au "
        "K♦ ; une carte peut prendre la carte seule ou deux qui font sa valeur ; une seule "
        "manche décide.",
        "ar": "سكوبا فراك: لا يسجّل إلا الآس وQ وJ وK، نقطة لكل منها؛ التعادل 8-8 لصاحب "
        "K♦؛ الورقة تأكل الورقة المساوية أو ورقتين مجموعهما قيمتها؛ جولة واحدة تحسم.",
    },
    "chkop": {
        "fr": "Chkop (Algérie) : prises d'autant de cartes qu'on veut (toujours le moins) ; pas "
        "deux cartes d'un rang sur la première table ; cartes, dénars, première (les 7 puis "
        "les 6), septébel et scope ; en 21.",
        "ar": "شكوب (الجزائر): أكل أي عدد من الأوراق (دائمًا الأقل)؛ لا ورقتين من رتبة واحدة "
        "على الطاولة الأولى؛ cartes وdénars وpremière (السبعات ثم الستّات) وseptébel "
        "وscope؛ إلى 21.",
    },
    TOUTI: {
        "fr": "Touti, le jeu marocain d'enchères et de plis : 4 joueurs, 2 contre 2",
        "ar": "التوتي، لعبة المزايدة والأكلات المغربية: 4 لاعبين، 2 ضد 2",
    },
}
"""Each game's one line (:data:`chkobba.fishing.rules.PRESET_DESCRIPTIONS`) in French and Arabic."""


class UnknownRules(LookupError):
    """A rules page asked for a name that is neither a preset nor Touti."""


def names() -> list[str]:
    """Every game with a rules page: the presets of ``chkobba rules``, then Touti."""
    return [*PRESETS, TOUTI]


def _words(english: str, translations: dict[str, str]) -> dict[str, str]:
    return {"en": english, **translations}


def _touti_description() -> str:
    # The second line of ``chkobba rules touti``: its one line on the game.
    return touti_rules_lines()[1].strip()


def description(name: str) -> dict[str, str]:
    """A game's one line in every language."""
    english = _touti_description() if name == TOUTI else PRESET_DESCRIPTIONS[name]
    return _words(english, DESCRIPTION_WORDS[name])


def index_json() -> dict[str, Any]:
    """``GET /api/rules``: every game with a rules page and its one line."""
    return {"games": [{"name": n, "description": description(n)} for n in names()]}


def rules_json(name: str) -> dict[str, Any]:
    """``GET /api/rules/NAME``: the game's options and points in every language, and the
    text ``chkobba rules NAME`` prints; :class:`UnknownRules` if there is no such game."""
    if name == TOUTI:
        return _touti_json()
    if name not in PRESETS:
        raise UnknownRules(f"unknown rules {name!r} (known: {', '.join(names())})")
    rules = PRESETS[name]
    base = CHKOBBA.options()
    options = [
        {
            "key": key,
            "value": _value(value),
            "differs": base[key] != value,
            "help": _words(OPTION_HELP[key], OPTION_WORDS[key]),
        }
        for key, value in rules.options().items()
    ]
    points = []
    for key in rules.scoring:
        pk = POINT_KEYS[key]
        points.append(
            {
                "key": key,
                "name": pk.label,
                "native": pk.native,
                "rule": pk.rule,
                "help": _words(POINT_RULES[pk.rule], POINT_RULE_WORDS[pk.rule]),
            }
        )
    return {
        "name": name,
        "game": "chkobba",
        "description": description(name),
        "seatings": list(rules.seatings),
        "target": rules.target,
        "options": options,
        "points": points,
        "text": preset_detail(name),
        "play": f"chkobba play --rules {name}",
    }


def _touti_json() -> dict[str, Any]:
    data = touti_rules_json()
    options = []
    for key, value in data["options"].items():
        values, section, english = touti_rules.OPTION_HELP[key]
        options.append(
            {
                "key": key,
                "value": _value(value),
                "differs": False,
                "values": values,
                "section": section,
                "help": _words(english, TOUTI_OPTION_WORDS[key]),
            }
        )
    return {
        "name": TOUTI,
        "game": TOUTI,
        "description": description(TOUTI),
        "seatings": ["2v2"],
        "target": touti_rules.DEFAULT.target,
        "options": options,
        "points": [],
        "text": touti_rules_lines(),
        "play": "chkobba play --game touti",
    }
