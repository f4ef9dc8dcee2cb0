/*
 * The inline half of the GitBook document JSON shapes (types.ts has the blocks and the
 * document): references to content, marks, text leaves and the inline nodes, after the
 * `ContentRef*`, `DocumentMark*`, `DocumentText*` and `DocumentInline*` schemas of GitBook's
 * OpenAPI document.
 */
export type ContentRefUrl = { kind: 'url'; url: string };
export type ContentRefFile = { kind: 'file'; file: string; space?: string };
export type ContentRefPage = { kind: 'page'; page: string; space?: string };
export type ContentRefAnchor = { kind: 'anchor'; anchor: string; page?: string; space?: string };
export type ContentRefSpace = { kind: 'space'; space: string };
export type ContentRefCollection = { kind: 'collection'; collection: string };
export type ContentRefUser = { kind: 'user'; user: string };
export type ContentRefOpenAPI = { kind: 'openapi'; spec: string };
export type ContentRefReusableContent = { kind: 'reusable-content'; reusableContent: string; space?: string };
export type ContentRefTag = { kind: 'tag'; tag: string; space?: string };

/** A reference from a document to content, GitBook's `ContentRef`. */
export type ContentRef =
  | ContentRefUrl
  | ContentRefFile
  | ContentRefPage
  | ContentRefAnchor
  | ContentRefSpace
  | ContentRefCollection
  | ContentRefUser
  | ContentRefOpenAPI
  | ContentRefReusableContent
  | ContentRefTag;

/** An image source: GitBook allows only URLs and files there. */
export type ImageRef = ContentRefUrl | ContentRefFile;

export type TextColor =
  | 'default'
  | 'green'
  | 'blue'
  | 'red'
  | 'orange'
  | 'yellow'
  | 'purple'
  | 'pink'
  | 'violet'
  | 'cyan'
  | '$primary'
  | '$info'
  | '$success'
  | '$warning'
  | '$danger'
  | '$tint';

export type SimpleMarkType = 'bold' | 'italic' | 'strikethrough' | 'code' | 'keyboard' | 'superscript' | 'subscript';
export type SimpleMark = { object: 'mark'; type: SimpleMarkType };
export type ColorMark = { object: 'mark'; type: 'color'; data: { text: TextColor; background: TextColor } };
export type Mark = SimpleMark | ColorMark;

export interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}

export interface Text {
  object: 'text';
  key?: string;
  leaves: Leaf[];
}

export interface InlineLink {
  object: 'inline';
  type: 'link';
  key?: string;
  isVoid: false;
  /** `href` (Quire's, in the schema's open `data`): the destination as written when it holds escapes (`a\_b`), written back while it still says `ref`. */
  data: { ref: ContentRef; href?: string };
  nodes: Array<Text | InlineImage>;
}

/** A button, written by GitBook as `<a href="…" class="button primary" data-icon="…">Label</a>`. */
export interface InlineButton {
  object: 'inline';
  type: 'button';
  key?: string;
  isVoid: true;
  /**
   * A button links (`ref`, `<a href class="button …">`) or acts (`action`, GitBook's
   * `<button type="button" class="button …" data-action="ask">`). One GitBook wrote with
   * neither (`<a class="button primary">` without href) is kept as such, written back so.
   */
  data: { label: string; kind: 'primary' | 'secondary'; icon?: string; ref?: ContentRef; action?: ButtonAction };
}

/** GitBook's DocumentAction: what a button does when it does not link. */
export type ButtonAction = { action: 'search' | 'ask'; query?: string } | { action: 'select'; slug: string };

/**
 * A page mention, GitBook's `[Page title](page.md "mention")`. Sites show the target's current
 * title. `text` (Quire's, in the schema's open `data`) is the text the markdown was read with,
 * written back as it was; without it the mention is written with `label`, which is only set
 * for writing (see `labelMentions`), never stored.
 */
export interface InlineMention {
  object: 'inline';
  type: 'mention';
  key?: string;
  isVoid: true;
  /** `href` (Quire's): the destination as written when it holds escapes, as a link's. */
  data: { ref: ContentRef; label?: string; text?: string; href?: string };
}

export interface InlineImage {
  object: 'inline';
  type: 'inline-image';
  key?: string;
  isVoid: true;
  /** `src`: the markdown destination as written when it holds escapes, as a link's `href`. */
  data: { ref: ImageRef; refDark?: ImageRef; alt?: string; caption?: string; size?: 'original' | 'line'; src?: string };
}

export interface InlineMath {
  object: 'inline';
  type: 'inline-math';
  key?: string;
  isVoid: true;
  data: { formula: string };
}

export interface InlineExpression {
  object: 'inline';
  type: 'expression';
  key?: string;
  isVoid: true;
  data: { expression: string };
}

export interface InlineIcon {
  object: 'inline';
  type: 'icon';
  key?: string;
  isVoid: true;
  data: { icon: string; color?: TextColor };
}

export interface InlineEmoji {
  object: 'inline';
  type: 'emoji';
  key?: string;
  isVoid: true;
  data: { code: string };
}

export type Inline = InlineLink | InlineImage | InlineMath | InlineExpression | InlineIcon | InlineEmoji | InlineButton | InlineMention;

/** What a paragraph, a heading or a table cell holds. */
export type InlineContent = Text | Inline;
