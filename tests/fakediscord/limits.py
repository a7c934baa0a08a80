"""Discord's payload rules that catch real bot bugs, checked on every message, modal and choice list.

Each check returns human-readable problems; the server turns them into Discord's real error
(400 code 50035 "Invalid Form Body") and records a violation, so a bug that Discord would
reject in production fails the test instead of passing silently against a lenient fake.
"""

from __future__ import annotations

from typing import Any

MAX_CONTENT = 2000
MAX_ACTION_ROWS = 5
MAX_ROW_COMPONENTS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_INPUT_LABEL = 45
MAX_INPUT_VALUE = 4000
MAX_INPUT_PLACEHOLDER = 100
MAX_MENTION_IDS = 100
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024  # non-boosted guilds and DMs
ACK_DEADLINE = 3.0  # seconds to send the initial interaction callback
TOKEN_TTL = 15 * 60.0  # seconds an interaction token stays valid for follow-ups / @original
NONCE_WINDOW = 5 * 60.0  # seconds an enforced nonce returns the author's earlier message instead of a new one
MAX_NONCE = 25  # characters of a string nonce (MessageCreateRequest.nonce)

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_VOICE_MESSAGE = 1 << 13
CREATE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_VOICE_MESSAGE | FLAG_COMPONENTS_V2
"""The flags a bot may set when it posts a message (Create Message: "only SUPPRESS_EMBEDS,
SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, and IS_COMPONENTS_V2 can be set")."""
EDIT_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
"""The flags an edit may change (Edit Message: "only SUPPRESS_EMBEDS can currently be set/unset";
IS_COMPONENTS_V2 may be added, never removed: ``check_v2_edit``). A flag the message has that no
edit may change stays whatever the body says (an edit never makes a silent message loud, or back)."""

SELECT_TYPES = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel selects
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}  # action row, section, text, gallery, file, separator, container
V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}
V2_ACCESSORIES = {2, 11}  # a section's accessory: a button or a thumbnail
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_SECTION_TEXTS = 3
MAX_GALLERY_ITEMS = 10
ATTACHMENT_SCHEME = "attachment://"


def _check_custom_id(comp: dict, where: str, seen: set[str], problems: list[str]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        return
    if not isinstance(cid, str) or not cid:
        problems.append(f"{where}: custom_id must be a non-empty string")
        return
    if len(cid) > MAX_CUSTOM_ID:
        problems.append(f"{where}: custom_id is {len(cid)} characters (max {MAX_CUSTOM_ID})")
    if cid in seen:
        problems.append(f"{where}: duplicate custom_id {cid!r}")
    seen.add(cid)


def _check_button(comp: dict, where: str, problems: list[str]) -> None:
    label = comp.get("label") or ""
    if len(label) > MAX_BUTTON_LABEL:
        problems.append(f"{where}: button label is {len(label)} characters (max {MAX_BUTTON_LABEL})")
    if comp.get("style") == 5:
        if not comp.get("url"):
            problems.append(f"{where}: link button without url")
    elif comp.get("style") != 6 and not comp.get("custom_id"):
        problems.append(f"{where}: button without custom_id")
    if not label and not comp.get("emoji"):
        problems.append(f"{where}: button needs a label or an emoji")


def _check_select(comp: dict, where: str, problems: list[str]) -> None:
    if len(comp.get("placeholder") or "") > MAX_PLACEHOLDER:
        problems.append(f"{where}: placeholder longer than {MAX_PLACEHOLDER}")
    if comp.get("type") != 3:
        return
    options = comp.get("options") or []
    if not options:
        problems.append(f"{where}: string select without options")
    if len(options) > MAX_SELECT_OPTIONS:
        problems.append(f"{where}: {len(options)} select options (max {MAX_SELECT_OPTIONS})")
    values: set[str] = set()
    for i, opt in enumerate(options):
        for key in ("label", "value"):
            if not str(opt.get(key) or ""):
                problems.append(f"{where}.options[{i}]: {key} must not be empty")
        for key in ("label", "value", "description"):
            if len(opt.get(key) or "") > MAX_OPTION_TEXT:
                problems.append(f"{where}.options[{i}]: {key} longer than {MAX_OPTION_TEXT}")
        if opt.get("value") in values:
            problems.append(f"{where}.options[{i}]: duplicate value {opt.get('value')!r}")
        values.add(opt.get("value"))
    max_values = comp.get("max_values", 1)
    if comp.get("min_values", 1) > max_values:
        problems.append(f"{where}: min_values {comp.get('min_values')} exceeds max_values {max_values}")
    if options and max_values > len(options):
        problems.append(f"{where}: max_values {max_values} exceeds {len(options)} options")


def check_components(components: list[dict], flags: int = 0) -> list[str]:
    """Legacy messages: at most 5 action rows of at most 5 buttons; a select fills a whole row.
    With IS_COMPONENTS_V2 in `flags`, the V2 layout rules instead (`_walk_v2`)."""
    problems: list[str] = []
    seen: set[str] = set()
    if flags & FLAG_COMPONENTS_V2:
        _walk_v2(components, "components", seen, problems)
        return problems
    if len(components) > MAX_ACTION_ROWS:
        problems.append(f"components: {len(components)} action rows (max {MAX_ACTION_ROWS})")
    for r, row in enumerate(components):
        where = f"components[{r}]"
        if row.get("type") != 1:
            problems.append(f"{where}: top-level component must be an action row (type 1)")
            continue
        children = row.get("components") or []
        _check_row(children, where, problems)
        for c, comp in enumerate(children):
            cwhere = f"{where}.components[{c}]"
            _check_custom_id(comp, cwhere, seen, problems)
            if comp.get("type") == 2:
                _check_button(comp, cwhere, problems)
            elif comp.get("type") in SELECT_TYPES:
                _check_select(comp, cwhere, problems)
    return problems


def _walk_v2(components: list[dict], where: str, seen: set[str], problems: list[str],
             allowed: set[int] = V2_TOP_LEVEL, ids: set[int] | None = None) -> None:
    """Components V2 layouts (Discord's component reference): each component where its parent
    may hold it, a Section with 1-3 Text Displays and one Button or Thumbnail accessory, a
    Media Gallery with 1-10 items, a non-empty Container, action rows as in legacy messages,
    unique `id`s; plus the id and per-item rules of the components inside."""
    ids = set() if ids is None else ids
    for i, comp in enumerate(components):
        cwhere = f"{where}[{i}]"
        ctype = comp.get("type")
        if ctype not in allowed:
            problems.append(f"{cwhere}: component type {ctype} is not allowed here (allowed: {sorted(allowed)})")
            continue
        cid = comp.get("id")
        if isinstance(cid, int) and cid:
            if cid in ids:
                problems.append(f"{cwhere}: duplicate component id {cid}")
            ids.add(cid)
        _check_custom_id(comp, cwhere, seen, problems)
        children = comp.get("components") or []
        if ctype == 2:
            _check_button(comp, cwhere, problems)
        elif ctype in SELECT_TYPES:
            _check_select(comp, cwhere, problems)
        elif ctype == 1:
            _check_row(children, cwhere, problems)
            _walk_v2(children, f"{cwhere}.components", seen, problems, {2} | SELECT_TYPES, ids)
        elif ctype == 17:
            if not children:
                problems.append(f"{cwhere}: a container needs at least one component")
            _walk_v2(children, f"{cwhere}.components", seen, problems, V2_IN_CONTAINER, ids)
        elif ctype == 9:
            if not 1 <= len(children) <= MAX_SECTION_TEXTS:
                problems.append(f"{cwhere}: a section holds 1-{MAX_SECTION_TEXTS} text displays, not {len(children)}")
            _walk_v2(children, f"{cwhere}.components", seen, problems, {10}, ids)
            accessory = comp.get("accessory")
            if not isinstance(accessory, dict):
                problems.append(f"{cwhere}: a section needs exactly one accessory (a button or a thumbnail)")
            else:
                _walk_v2([accessory], f"{cwhere}.accessory", seen, problems, V2_ACCESSORIES, ids)
        elif ctype == 10 and not str(comp.get("content") or ""):
            problems.append(f"{cwhere}: a text display needs content")
        elif ctype == 12 and not 1 <= len(comp.get("items") or []) <= MAX_GALLERY_ITEMS:
            problems.append(f"{cwhere}: a media gallery holds 1-{MAX_GALLERY_ITEMS} items, "
                            f"not {len(comp.get('items') or [])}")
        elif ctype == 13 and not _url(comp.get("file")).startswith(ATTACHMENT_SCHEME):
            problems.append(f"{cwhere}: a file component takes only an attachment://<filename> url")


def _check_row(children: list[dict], where: str, problems: list[str]) -> None:
    """An action row: 1-5 buttons, or one select alone."""
    if not children:
        problems.append(f"{where}: empty action row")
    if len(children) > MAX_ROW_COMPONENTS:
        problems.append(f"{where}: {len(children)} components in one row (max {MAX_ROW_COMPONENTS})")
    if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
        problems.append(f"{where}: a select menu must be alone in its action row")


def _url(media: Any) -> str:
    return str(media.get("url") or "") if isinstance(media, dict) else ""


def _all_components(components: list[dict]) -> list[dict]:
    """Every component of a layout, nested ones and section accessories included."""
    out: list[dict] = []
    for comp in components:
        out.append(comp)
        out += _all_components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            out += _all_components([comp["accessory"]])
    return out


def media_urls(components: list[dict]) -> list[str]:
    """The media urls of a V2 layout: thumbnails, media gallery items and files, in order."""
    urls: list[str] = []
    for comp in _all_components(components):
        if comp.get("type") == 11:
            urls.append(_url(comp.get("media")))
        elif comp.get("type") == 12:
            urls += [_url(item.get("media")) for item in comp.get("items") or []]
        elif comp.get("type") == 13:
            urls.append(_url(comp.get("file")))
    return [u for u in urls if u]


def check_v2_totals(components: list[dict], attachments: list[str] | None) -> list[str]:
    """The message-wide V2 rules: at most 40 components counting nested ones, at most 4000
    characters of Text Display content together (the spec caps each at 4000; discord.food
    documents the total), and every attachment://<filename> naming a file of this message
    (`attachments`: its filenames after this request; None skips that check)."""
    problems: list[str] = []
    every = _all_components(components)
    if len(every) > MAX_V2_COMPONENTS:
        problems.append(f"components: {len(every)} components in total, nested ones included "
                        f"(max {MAX_V2_COMPONENTS})")
    text = sum(len(str(c.get("content") or "")) for c in every if c.get("type") == 10)
    if text > MAX_V2_TEXT:
        problems.append(f"components: {text} characters of text displays in total (max {MAX_V2_TEXT})")
    if attachments is not None:
        for url in media_urls(components):
            name = url.removeprefix(ATTACHMENT_SCHEME)
            if url.startswith(ATTACHMENT_SCHEME) and name not in attachments:
                problems.append(f"components: {url} names no attachment of this message "
                                f"(attached: {sorted(attachments)})")
    return problems


def assign_component_ids(components: list[dict]) -> list[dict]:
    """The layout with an `id` on every component, as Discord answers: those sent without one
    (or with 0) get the next sequential number not already used in the message."""
    used = {c["id"] for c in _all_components(components) if isinstance(c.get("id"), int) and c["id"]}
    counter = iter(n for n in range(1, 1 << 31) if n not in used)

    def number(comp: dict) -> dict:
        out = {**comp}
        if not (isinstance(out.get("id"), int) and out["id"]):
            out["id"] = next(counter)
        if isinstance(out.get("components"), list):
            out["components"] = [number(c) for c in out["components"]]
        if isinstance(out.get("accessory"), dict):
            out["accessory"] = number(out["accessory"])
        return out

    return [number(c) for c in components]


def check_v2_edit(previous_flags: int, body: dict) -> list[str]:
    """Discord's component reference: once a message has the IS_COMPONENTS_V2 flag, an edit
    cannot take it away."""
    flags = body.get("flags")
    if previous_flags & FLAG_COMPONENTS_V2 and flags is not None and not int(flags) & FLAG_COMPONENTS_V2:
        return ["flags: the IS_COMPONENTS_V2 flag (1 << 15) cannot be removed from a message that has it"]
    return []


def check_embeds(embeds: list[dict]) -> list[str]:
    """Embed count and text lengths, including the 6000-character total."""
    problems: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"embeds: {len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0
    for i, emb in enumerate(embeds):
        title, desc = emb.get("title") or "", emb.get("description") or ""
        if len(title) > MAX_EMBED_TITLE:
            problems.append(f"embeds[{i}]: title longer than {MAX_EMBED_TITLE}")
        if len(desc) > MAX_EMBED_DESCRIPTION:
            problems.append(f"embeds[{i}]: description longer than {MAX_EMBED_DESCRIPTION}")
        fields = emb.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append(f"embeds[{i}]: {len(fields)} fields (max {MAX_EMBED_FIELDS})")
        total += len(title) + len(desc) + sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        total += len((emb.get("footer") or {}).get("text", "")) + len((emb.get("author") or {}).get("name", ""))
    if total > MAX_EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in total (max {MAX_EMBED_TOTAL})")
    return problems


def check_message(body: dict, files: list[tuple[str, bytes]], size_limit: int, *,
                  previous: dict | None = None, attachments: list[str] | None = None) -> list[str]:
    """Everything Discord validates on a message create/edit that a bot can get wrong. On an
    edit, `previous` is the message's current version (flags, content, embeds, components), so
    the rules apply to the message as it would be afterwards; `attachments` are its filenames
    after the request, for V2 attachment:// references."""
    problems: list[str] = []
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        problems.append(f"content: {len(str(content))} characters (max {MAX_CONTENT})")
    before = previous or {}
    flags = int(body.get("flags") or 0)
    if previous is not None:
        problems += check_v2_edit(int(before.get("flags") or 0), body)
        if body.get("flags") is None:
            flags = int(before.get("flags") or 0)
    components = list((body["components"] if "components" in body else before.get("components")) or [])
    if "components" in body or previous is None or flags & FLAG_COMPONENTS_V2:
        problems += check_components(components, flags)
    if flags & FLAG_COMPONENTS_V2:
        problems += check_v2_totals(components, attachments)
        for key in ("content", "embeds"):
            if body[key] if key in body else before.get(key):
                problems.append(f"{key}: a message with the IS_COMPONENTS_V2 flag (1 << 15) cannot have {key}; "
                                "use Text Display components (set it to null when upgrading a message)")
    problems += check_embeds(body.get("embeds") or [])
    problems += check_allowed_mentions(body.get("allowed_mentions"))
    if len(files) > MAX_FILES:
        problems.append(f"files: {len(files)} attachments (max {MAX_FILES})")
    return problems


def oversized_files(files: list[tuple[str, bytes]], size_limit: int) -> list[str]:
    """Files above the upload limit; Discord answers 413 code 40005 for these."""
    return [f"{name}: {len(data)} bytes (limit {size_limit})" for name, data in files if len(data) > size_limit]


def check_modal(data: dict) -> list[str]:
    """Modal title, 1-5 top-level components, text-input labels/values, unique custom_ids."""
    problems: list[str] = []
    title = data.get("title") or ""
    if not title or len(title) > MAX_MODAL_TITLE:
        problems.append(f"modal: title must be 1-{MAX_MODAL_TITLE} characters (got {len(title)})")
    seen: set[str] = set()
    _check_custom_id(data, "modal", seen, problems)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= MAX_MODAL_COMPONENTS:
        problems.append(f"modal: {len(comps)} components (must be 1-{MAX_MODAL_COMPONENTS})")
    for i, top in enumerate(comps):
        where = f"modal.components[{i}]"
        for inner in modal_inputs_of(top):
            _check_custom_id(inner, where, seen, problems)
            if inner.get("type") == 4:
                label = inner.get("label") or top.get("label") or ""
                if len(label) > MAX_INPUT_LABEL:
                    problems.append(f"{where}: input label is {len(label)} characters (max {MAX_INPUT_LABEL})")
                problems += _check_text_input(inner, where)
            elif inner.get("type") in SELECT_TYPES:
                _check_select(inner, where, problems)
        if top.get("type") == 1 and len(top.get("components") or []) != 1:
            problems.append(f"{where}: a modal action row holds exactly one input")
    return problems


def _check_text_input(inner: dict, where: str) -> list[str]:
    """A text input's placeholder, length bounds, and a prefilled value that fits them."""
    problems: list[str] = []
    value = str(inner.get("value") or "")
    most = int(inner.get("max_length") or MAX_INPUT_VALUE)
    least = int(inner.get("min_length") or 0)
    if len(inner.get("placeholder") or "") > MAX_INPUT_PLACEHOLDER:
        problems.append(f"{where}: placeholder longer than {MAX_INPUT_PLACEHOLDER}")
    if least > most:
        problems.append(f"{where}: min_length {least} exceeds max_length {most}")
    if len(value) > min(most, MAX_INPUT_VALUE):
        problems.append(f"{where}: prefilled value is {len(value)} characters (max_length {most})")
    return problems


def check_allowed_mentions(allowed: dict | None) -> list[str]:
    """Discord refuses a `parse` type together with an explicit list of the same type."""
    problems: list[str] = []
    if not allowed:
        return problems
    parse = set(allowed.get("parse") or [])
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if kind in parse and listed:
            problems.append(f"allowed_mentions: parse {kind!r} and a {kind} list are mutually exclusive")
        if len(listed) > MAX_MENTION_IDS:
            problems.append(f"allowed_mentions.{kind}: {len(listed)} ids (max {MAX_MENTION_IDS})")
    return problems


def modal_inputs_of(top: dict) -> list[dict]:
    """The input components inside one top-level modal component (action row or label)."""
    if top.get("type") == 1:
        return list(top.get("components") or [])
    if top.get("type") == 18 and isinstance(top.get("component"), dict):
        return [top["component"]]
    return []


def check_choices(choices: list[dict]) -> list[str]:
    """Autocomplete answers: at most 25 choices with names of at most 100 characters."""
    problems: list[str] = []
    if len(choices) > MAX_CHOICES:
        problems.append(f"choices: {len(choices)} (max {MAX_CHOICES})")
    for i, ch in enumerate(choices):
        if not 1 <= len(str(ch.get("name", ""))) <= MAX_CHOICE_NAME:
            problems.append(f"choices[{i}]: name must be 1-{MAX_CHOICE_NAME} characters")
    return problems


def check_flags(flags: int | None, current: int | None = None) -> list[str]:
    """A posted message's ``flags`` (``current`` None) or an edit's (``current``: the message's flags)."""
    if flags is None:
        return []
    if current is None:
        extra = int(flags) & ~CREATE_FLAGS
        return [f"flags: {extra} cannot be set on a new message (only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, "
                "IS_VOICE_MESSAGE and IS_COMPONENTS_V2)"] if extra else []
    added = int(flags) & ~current & ~EDIT_FLAGS
    return [f"flags: {added} cannot be set by an edit (only SUPPRESS_EMBEDS)"] if added else []


def edited_flags(current: int, flags: int) -> int:
    """The flags after an edit: the editable ones as the body says, the others as they were."""
    return (current & ~EDIT_FLAGS) | (int(flags) & EDIT_FLAGS)


def form_error(problems: list[str]) -> dict[str, Any]:
    """Discord's Invalid Form Body error shape, with the problems listed for the test log."""
    return {"message": "Invalid Form Body", "code": 50035, "errors": {"_fakediscord": problems}}
