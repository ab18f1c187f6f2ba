"""Discord's message limits, enforced the way Discord reports them.

A bot that builds an over-long embed or a sixth button row works against a lenient fake and
fails in production, so the fake rejects such payloads with the same status (400), code (50035,
"Invalid Form Body") and nested ``errors`` structure Discord uses. discord.py flattens that
structure into the text of ``discord.HTTPException``, so tests see e.g.
``In embeds.0.title: Must be 256 or fewer in length.``
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]
Path = tuple[str | int, ...]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER_TEXT = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_PLACEHOLDER = 150

BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
ACTION_ROW = 1

# Components V2 (message flag IS_COMPONENTS_V2)
FLAG_COMPONENTS_V2 = 1 << 15
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_GALLERY_ITEMS = 10
MAX_SECTION_TEXTS = 3
#: what may stand at the top level of a V2 message, and inside a container
V2_TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
V2_IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
ATTACHMENT_SCHEME = "attachment://"


class FormErrors:
    """Collects field errors and renders Discord's nested ``errors`` object."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def too_long(self, path: Path, value: str | None, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def __bool__(self) -> bool:
        return bool(self.items)

    def body(self) -> JSON:
        errors: JSON = {}
        for path, code, message in self.items:
            node = errors
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def _embed_text_length(embed: JSON) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def validate_embeds(embeds: list[JSON], errors: FormErrors) -> None:
    if len(embeds) > MAX_EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        base: Path = ("embeds", i)
        errors.too_long((*base, "title"), embed.get("title"), MAX_EMBED_TITLE)
        errors.too_long((*base, "description"), embed.get("description"), MAX_EMBED_DESCRIPTION)
        errors.too_long((*base, "footer", "text"), (embed.get("footer") or {}).get("text"), MAX_FOOTER_TEXT)
        errors.too_long((*base, "author", "name"), (embed.get("author") or {}).get("name"), MAX_AUTHOR_NAME)
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            errors.add((*base, "fields"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBED_FIELDS} or fewer in length.")
        for j, f in enumerate(fields):
            name, value = f.get("name"), f.get("value")
            if not name:
                errors.add((*base, "fields", j, "name"), "BASE_TYPE_REQUIRED", "This field is required")
            if not value:
                errors.add((*base, "fields", j, "value"), "BASE_TYPE_REQUIRED", "This field is required")
            errors.too_long((*base, "fields", j, "name"), name, MAX_FIELD_NAME)
            errors.too_long((*base, "fields", j, "value"), value, MAX_FIELD_VALUE)
        total += _embed_text_length(embed)
    if total > MAX_EMBED_TOTAL:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _validate_button(button: JSON, path: Path, errors: FormErrors) -> None:
    errors.too_long((*path, "label"), button.get("label"), MAX_LABEL)
    style = button.get("style")
    if style == 5:
        if not button.get("url"):
            errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
    elif style != 6:
        custom_id = button.get("custom_id")
        if not custom_id:
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        errors.too_long((*path, "custom_id"), custom_id, MAX_CUSTOM_ID)
    if not button.get("label") and not button.get("emoji"):
        errors.add((*path,), "COMPONENT_INVALID", "A button must have a label or an emoji")


def _validate_select(select: JSON, path: Path, errors: FormErrors) -> None:
    custom_id = select.get("custom_id")
    if not custom_id:
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    errors.too_long((*path, "custom_id"), custom_id, MAX_CUSTOM_ID)
    errors.too_long((*path, "placeholder"), select.get("placeholder"), MAX_PLACEHOLDER)
    options = select.get("options") or []
    if select.get("type") == 3:
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            errors.add(
                (*path, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
        seen: set[str] = set()
        for k, option in enumerate(options):
            errors.too_long((*path, "options", k, "label"), option.get("label"), 100)
            errors.too_long((*path, "options", k, "value"), option.get("value"), 100)
            value = option.get("value")
            if value in seen:
                errors.add((*path, "options", k, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Duplicate")
            seen.add(value)
    min_values = int(select.get("min_values", 1))
    max_values = int(select.get("max_values", 1))
    upper = len(options) if select.get("type") == 3 else MAX_SELECT_OPTIONS
    if not 0 <= min_values <= MAX_SELECT_OPTIONS:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "min_values must be between 0 and 25")
    if not 1 <= max_values <= MAX_SELECT_OPTIONS:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "max_values must be between 1 and 25")
    if min_values > max_values:
        errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_GT_MAX", "min_values exceeds max_values")
    if select.get("type") == 3 and max_values > upper:
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
            "max_values exceeds the number of options",
        )


def _validate_row(row: JSON, path: Path, errors: FormErrors) -> None:
    children = row.get("components") or []
    if not children:
        errors.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        return
    kinds = {c.get("type") for c in children}
    if kinds & SELECT_TYPES and len(children) > 1:
        errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select must be alone in its row")
    if len(children) > MAX_ROW_BUTTONS:
        errors.add(
            (*path, "components"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {MAX_ROW_BUTTONS} in length.",
        )
    for i, child in enumerate(children):
        if child.get("type") == BUTTON:
            _validate_button(child, (*path, "components", i), errors)
        elif child.get("type") in SELECT_TYPES:
            _validate_select(child, (*path, "components", i), errors)


def _check_media(media: Any, path: Path, errors: FormErrors, attachments: set[str] | None) -> None:
    url = media.get("url") if isinstance(media, dict) else None
    if not url:
        errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if str(url).startswith(ATTACHMENT_SCHEME) and attachments is not None:
        name = str(url)[len(ATTACHMENT_SCHEME) :]
        if name not in attachments:
            errors.add((*path, "url"), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", f"Attachment {name!r} not found")


def _walk_v2(component: JSON, path: Path, errors: FormErrors, attachments: set[str] | None, parent: int | None) -> None:
    """One V2 component: the types allowed where it stands, its own limits, then its children."""
    ctype = component.get("type")
    allowed = V2_TOP_LEVEL if parent is None else V2_IN_CONTAINER
    if ctype not in allowed:
        where = "at the top level" if parent is None else "in a container"
        errors.add((*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {ctype} is not allowed {where}")
        return
    if ctype == ACTION_ROW:
        _validate_row(component, path, errors)
        return
    if ctype == TEXT_DISPLAY:
        if not component.get("content"):
            errors.add((*path, "content"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if ctype == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            errors.add(
                (*path, "items"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_GALLERY_ITEMS} in length."
            )
        for i, item in enumerate(items):
            _check_media(item.get("media"), (*path, "items", i, "media"), errors, attachments)
            errors.too_long((*path, "items", i, "description"), item.get("description"), 1024)
        return
    if ctype == FILE:
        _check_media(component.get("file"), (*path, "file"), errors, attachments)
        url = str((component.get("file") or {}).get("url") or "")
        if not url.startswith(ATTACHMENT_SCHEME):
            errors.add((*path, "file", "url"), "COMPONENT_INVALID", "A file component only takes attachment:// urls")
        return
    if ctype == SEPARATOR:
        if component.get("spacing", 1) not in (1, 2):
            errors.add((*path, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        return
    if ctype == SECTION:
        texts = component.get("components") or []
        if not 1 <= len(texts) <= MAX_SECTION_TEXTS:
            errors.add(
                (*path, "components"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_SECTION_TEXTS} in length."
            )
        for i, child in enumerate(texts):
            if child.get("type") != TEXT_DISPLAY:
                errors.add((*path, "components", i, "type"), "COMPONENT_TYPE_INVALID", "A section holds text displays")
        accessory = component.get("accessory")
        if not isinstance(accessory, dict):
            errors.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
        elif accessory.get("type") == BUTTON:
            _validate_button(accessory, (*path, "accessory"), errors)
        elif accessory.get("type") == THUMBNAIL:
            _check_media(accessory.get("media"), (*path, "accessory", "media"), errors, attachments)
        else:
            errors.add((*path, "accessory", "type"), "COMPONENT_TYPE_INVALID", "An accessory is a button or thumbnail")
        return
    # a container: its children, none of them another container
    children = component.get("components") or []
    if not children:
        errors.add((*path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 40 in length.")
    for i, child in enumerate(children):
        _walk_v2(child, (*path, "components", i), errors, attachments, CONTAINER)


def count_components(components: list[JSON]) -> int:
    """Components as Discord counts them towards the 40 of a V2 message: every one, nested ones included."""
    return len(iter_components(components))


def v2_text_length(components: list[JSON]) -> int:
    return sum(len(c.get("content") or "") for c in iter_components(components) if c.get("type") == TEXT_DISPLAY)


def validate_components(
    components: list[JSON], flags: int, errors: FormErrors, attachments: set[str] | None = None
) -> None:
    """``attachments``: the file names the message will carry (``None``: unknown, references are not checked)."""
    components_v2 = bool(flags & FLAG_COMPONENTS_V2)
    if not components_v2:
        if len(components) > MAX_ACTION_ROWS:
            errors.add(
                ("components",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 0 and {MAX_ACTION_ROWS} in length.",
            )
        for i, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                errors.add(("components", i, "type"), "COMPONENT_TYPE_INVALID", "Top-level must be action rows")
                continue
            _validate_row(row, ("components", i), errors)
    else:
        for i, component in enumerate(components):
            _walk_v2(component, ("components", i), errors, attachments, None)
        if count_components(components) > MAX_V2_COMPONENTS:
            errors.add(
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_V2_COMPONENTS} or fewer in length (nested components included).",
            )
        if v2_text_length(components) > MAX_V2_TEXT:
            errors.add(
                ("components",), "COMPONENT_MAX_TOTAL_TEXT_LENGTH", f"Total text must be {MAX_V2_TEXT} or fewer."
            )
    custom_ids = [c.get("custom_id") for c in iter_components(components) if c.get("custom_id")]
    if len(custom_ids) != len(set(custom_ids)):
        errors.add(("components",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")


def is_empty_message(body: JSON) -> bool:
    """Discord refuses (code 50006) a new message with nothing visible in it."""
    keys = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
    return not any(body.get(k) for k in keys)


def validate_message(body: JSON, current: JSON | None = None, attachments: set[str] | None = None) -> FormErrors:
    """Checks the parts of a create/edit message body that Discord limits.

    ``current``: for an edit, the message as it is (``content``, ``embeds``, ``components``, ``flags``): an edit
    is checked as the message it makes, e.g. a V2 message stays V2 and so still takes no embeds. ``attachments``:
    the file names the message carries afterwards (uploaded or kept), which ``attachment://`` references name.
    """
    errors = FormErrors()
    merged = {**(current or {}), **{k: v for k, v in body.items() if k != "flags" or v is not None}}
    content = body.get("content")
    errors.too_long(("content",), content, MAX_CONTENT)
    embeds = body.get("embeds") or []
    validate_embeds(embeds, errors)
    flags = int(merged.get("flags") or 0)
    was_v2 = bool(int((current or {}).get("flags") or 0) & FLAG_COMPONENTS_V2)
    if was_v2 and not flags & FLAG_COMPONENTS_V2:
        errors.add(
            ("flags",), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed"
        )
    if flags & FLAG_COMPONENTS_V2:
        for key in ("content", "embeds", "sticker_ids", "poll"):
            if merged.get(key):
                errors.add(
                    (key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", f"{key} cannot be used with V2"
                )
    components = merged.get("components") or []
    validate_components(components, flags, errors, attachments)
    return errors


def iter_components(components: list[JSON]) -> list[JSON]:
    """Every component in a (possibly nested, possibly V2) component tree, depth first."""
    found: list[JSON] = []
    stack = list(reversed(components))
    while stack:
        component = stack.pop()
        found.append(component)
        accessory = component.get("accessory")
        children = list(component.get("components") or [])
        if isinstance(accessory, dict):
            children.append(accessory)
        stack.extend(reversed(children))
    return found
