'use strict';

// grammar-source.js is the editable source of the skillscript TextMate
// grammar. Regular expressions are written with String.raw so they read the
// same as in an Oniguruma reference; `npm run build:grammar` writes
// skillscript.tmLanguage.json from this file and `npm test` fails when the
// committed JSON is out of date.

const r = String.raw;

// IDENT is a variable, target or connector name.
const IDENT = r`[A-Za-z_][A-Za-z0-9_-]*`;
// VAR is a variable name (no dashes).
const VAR = r`[A-Za-z_][A-Za-z0-9_]*`;
// EOL_COMMENT looks ahead for the end of a line that may carry a trailing comment.
const EOL_COMMENT = r`(?=[ \t]*(?:#.*)?$)`;

const TYPED_OPS = 'llm|data_read|data_write|skill_read|skill_write|json_parse';
const CALL_OPS = 'emit|notify|inline|execute_skill|shell|file_read|file_write';
const FILTERS = 'url|shell|json|trim|length|contains|fallback|isodate|head|tail|lines|pluck';
const AMBIENT = 'NOW|USER|SESSION_CONTEXT|TRIGGER_TYPE|TRIGGER_PAYLOAD|EVENT|ERROR_CONTEXT';
const RESERVED_FUTURE = 'while|for|match|try|catch|return';

// header builds a begin/end rule for a one-line "# Key: value" header.
function header(keys, scopeKey, patterns) {
  return {
    name: `meta.header.${scopeKey}.skillscript`,
    begin: r`^(#)[ \t]*((?i:${keys}))[ \t]*(:)`,
    end: '$',
    beginCaptures: headerCaptures(`keyword.other.header.${scopeKey}.skillscript`),
    patterns,
  };
}

// headerCaptures names the "#", key and ":" of a header line.
function headerCaptures(keyScope) {
  return {
    1: { name: 'punctuation.definition.header.skillscript' },
    2: { name: keyScope },
    3: { name: 'punctuation.separator.key-value.skillscript' },
  };
}

// fallbackRule matches "(fallback: value)" after an op or a # Requires: line.
const fallbackRule = {
  name: 'meta.fallback.skillscript',
  begin: r`(\()[ \t]*(fallback)[ \t]*(:)`,
  end: r`\)|$`,
  beginCaptures: {
    1: { name: 'punctuation.section.fallback.begin.skillscript' },
    2: { name: 'keyword.other.fallback.skillscript' },
    3: { name: 'punctuation.separator.key-value.skillscript' },
  },
  endCaptures: { 0: { name: 'punctuation.section.fallback.end.skillscript' } },
  patterns: [
    { include: '#values' },
    { name: 'string.unquoted.fallback.skillscript', match: r`[^\s"'\[\]{}()$,]+` },
  ],
};

const grammar = {
  $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
  name: 'Skillscript',
  scopeName: 'source.skillscript',
  fileTypes: ['skill.md'],
  patterns: [
    { include: '#fenced-skill' },
    { include: '#skill' },
  ],
  repository: {
    // A file may wrap the skill in a ```skillscript fence with prose around it.
    'fenced-skill': {
      name: 'meta.embedded.block.skillscript',
      begin: r`^(\x60{3,})[ \t]*(skillscript|skill)[ \t]*$`,
      end: r`^(\1)[ \t]*$`,
      beginCaptures: {
        1: { name: 'punctuation.definition.fence.begin.skillscript' },
        2: { name: 'fenced_code.block.language.skillscript' },
      },
      endCaptures: { 1: { name: 'punctuation.definition.fence.end.skillscript' } },
      patterns: [{ include: '#skill' }],
    },

    skill: {
      patterns: [
        { include: '#headers' },
        { include: '#file-comment' },
        { include: '#default-goal' },
        { include: '#target-else' },
        { include: '#target' },
        { include: '#template' },
      ],
    },

    // ---- headers -------------------------------------------------------
    headers: {
      patterns: [
        { include: '#header-skill' },
        { include: '#header-status' },
        { include: '#header-type' },
        { include: '#header-autonomous' },
        { include: '#header-vars' },
        { include: '#header-returns' },
        { include: '#header-requires' },
        { include: '#header-triggers' },
        { include: '#header-output' },
        { include: '#header-event-type' },
        { include: '#header-templates' },
        { include: '#header-tags' },
        { include: '#header-duration' },
        { include: '#header-description' },
        { include: '#header-tests' },
        { include: '#header-legacy' },
        { include: '#header-removed' },
      ],
    },
    'header-skill': header('skill', 'skill', [
      { name: 'entity.name.type.skill.skillscript', match: r`[^\s#]+` },
    ]),
    'header-status': header('status', 'status', [
      { name: 'constant.language.status.skillscript', match: r`\b(?i:draft|approved|disabled)\b` },
      { name: 'string.unquoted.signature.skillscript', match: r`\bv[0-9]+:\S+` },
      { include: '#substitutions' },
    ]),
    'header-type': header('type', 'type', [
      { name: 'constant.language.type.skillscript', match: r`\b(?i:data)\b` },
      { name: 'string.unquoted.header-value.skillscript', match: r`\S+` },
    ]),
    'header-autonomous': header('autonomous', 'autonomous', [
      { name: 'constant.language.boolean.skillscript', match: r`\b(?i:true|false)\b` },
      { name: 'string.unquoted.header-value.skillscript', match: r`\S+` },
    ]),
    'header-vars': header('vars', 'vars', [
      {
        match: r`(?:\G|(?<=,))[ \t]*(${VAR})(?:[ \t]*(=))?`,
        captures: {
          1: { name: 'variable.other.declaration.skillscript' },
          2: { name: 'keyword.operator.assignment.skillscript' },
        },
      },
      { name: 'punctuation.separator.comma.skillscript', match: ',' },
      { include: '#values' },
      { name: 'string.unquoted.default-value.skillscript', match: r`[^\s"'\[\]{}(),$]+` },
    ]),
    'header-returns': header('returns', 'returns', [
      { name: 'variable.other.declaration.skillscript', match: VAR },
      { name: 'punctuation.separator.comma.skillscript', match: ',' },
    ]),
    'header-requires': header('requires', 'requires', [
      {
        match: r`\b(secret)(\.)(${VAR})`,
        captures: {
          1: { name: 'keyword.other.secret.skillscript' },
          2: { name: 'punctuation.accessor.skillscript' },
          3: { name: 'variable.other.constant.secret.skillscript' },
        },
      },
      {
        match: r`\b(user-var|system-var)(:)([A-Za-z0-9_.-]+)`,
        captures: {
          1: { name: 'support.constant.requirement-kind.skillscript' },
          2: { name: 'punctuation.separator.key-value.skillscript' },
          3: { name: 'string.unquoted.requirement-key.skillscript' },
        },
      },
      { include: '#binding' },
      fallbackRule,
      {
        name: 'entity.name.type.capability.skillscript',
        match: r`\b${IDENT}\.${IDENT}\b`,
      },
      { name: 'punctuation.separator.comma.skillscript', match: ',' },
    ]),
    'header-triggers': header('triggers', 'triggers', [
      {
        match: r`(?:\G|(?<=,))[ \t]*((?i:cron|event|idle|session))[ \t]*(:)`,
        captures: {
          1: { name: 'support.constant.trigger-source.skillscript' },
          2: { name: 'punctuation.separator.key-value.skillscript' },
        },
      },
      { include: '#strings' },
      { name: 'string.unquoted.trigger-spec.skillscript', match: r`[^\s"',]+` },
    ]),
    'header-output': header('output', 'output', [
      {
        match: r`(?:\G|(?<=,))[ \t]*((?i:text|none|agent|template|file))\b(?:[ \t]*(:))?`,
        captures: {
          1: { name: 'support.constant.output-kind.skillscript' },
          2: { name: 'punctuation.separator.key-value.skillscript' },
        },
      },
      { include: '#substitutions' },
      { name: 'string.unquoted.output-target.skillscript', match: r`[^\s,$]+` },
    ]),
    'header-event-type': header('event-type', 'event-type', [
      { name: 'string.unquoted.event-type.skillscript', match: r`\S+` },
    ]),
    'header-templates': header('templates', 'templates', [
      { name: 'entity.name.type.skill.skillscript', match: r`[^\s,]+` },
      { name: 'punctuation.separator.comma.skillscript', match: ',' },
    ]),
    'header-tags': header('tags', 'tags', [
      { name: 'entity.name.tag.skillscript', match: r`[^\s,]+` },
      { name: 'punctuation.separator.comma.skillscript', match: ',' },
    ]),
    'header-duration': header('timeout|deadline', 'duration', [
      { include: '#numbers' },
      { include: '#substitutions' },
    ]),
    'header-description': header('description', 'description', [
      { include: '#substitutions' },
      { name: 'string.unquoted.description.skillscript', match: r`[^$]+|\$` },
    ]),
    // # Tests: introduces an indented YAML block that runs until the next
    // line that starts at column 0.
    'header-tests': {
      name: 'meta.header.tests.skillscript',
      begin: r`^(#)[ \t]*((?i:tests))[ \t]*(:)`,
      end: r`^(?=\S)`,
      beginCaptures: headerCaptures('keyword.other.header.tests.skillscript'),
      patterns: [{ include: '#tests-yaml' }],
    },
    'tests-yaml': {
      patterns: [
        {
          name: 'comment.line.number-sign.yaml',
          match: r`(?:^|(?<=\s))#.*$`,
        },
        {
          match: r`^[ \t]*(?:(-)[ \t]+)?([A-Za-z_][\w-]*)[ \t]*(:)(?=\s|$)`,
          captures: {
            1: { name: 'punctuation.definition.block.sequence.item.yaml' },
            2: { name: 'entity.name.tag.yaml' },
            3: { name: 'punctuation.separator.key-value.mapping.yaml' },
          },
        },
        { name: 'punctuation.definition.block.sequence.item.yaml', match: r`^[ \t]*-(?=\s)` },
        { include: '#strings' },
        { include: '#numbers' },
        { include: '#constants' },
      ],
    },
    'header-legacy': {
      name: 'meta.header.legacy.skillscript',
      begin: r`^(#)[ \t]*((?i:delivery-context))[ \t]*(:)`,
      end: '$',
      beginCaptures: headerCaptures('invalid.deprecated.header.skillscript'),
      patterns: [{ name: 'string.unquoted.event-type.skillscript', match: r`\S+` }],
    },
    'header-removed': {
      name: 'meta.header.removed.skillscript',
      begin: r`^(#)[ \t]*((?i:onerror))[ \t]*(:)`,
      end: '$',
      beginCaptures: headerCaptures('invalid.illegal.header.removed.skillscript'),
    },

    // A column-0 "#" line that is not a known header is a comment.
    'file-comment': {
      name: 'comment.line.number-sign.skillscript',
      match: r`^(#).*$`,
      captures: { 1: { name: 'punctuation.definition.comment.skillscript' } },
    },

    // ---- targets -------------------------------------------------------
    'default-goal': {
      match: r`^(default)[ \t]*(:)[ \t]*(${IDENT})?`,
      captures: {
        1: { name: 'keyword.control.default.skillscript' },
        2: { name: 'punctuation.separator.key-value.skillscript' },
        3: { name: 'entity.name.function.target.reference.skillscript' },
      },
    },
    // A column-0 else: is the target-level error handler.
    'target-else': {
      name: 'meta.target.else.skillscript',
      begin: r`^(else)[ \t]*(:)`,
      end: r`^(?=[^\s#])`,
      beginCaptures: {
        1: { name: 'keyword.control.exception.else.skillscript' },
        2: { name: 'punctuation.section.block.skillscript' },
      },
      patterns: [{ include: '#headers' }, { include: '#file-comment' }, { include: '#body' }],
    },
    // A target header: "name:", "name: dep1 dep2" or "name: needs: a, b",
    // followed by its indented body; column-0 "#" lines (comments, headers)
    // do not end the body. A template line shaped like a target
    // header ("Summary: hot today") cannot be told apart line by line; the
    // language server's semantic tokens settle those.
    target: {
      name: 'meta.target.skillscript',
      begin: r`^(${IDENT})[ \t]*(:)((?:[ \t]*(?:needs[ \t]*:|,|${IDENT}))*)${EOL_COMMENT}`,
      end: r`^(?=[^\s#])`,
      beginCaptures: {
        1: { name: 'entity.name.function.target.skillscript' },
        2: { name: 'punctuation.section.block.skillscript' },
        3: { patterns: [{ include: '#target-deps' }] },
      },
      patterns: [{ include: '#headers' }, { include: '#file-comment' }, { include: '#body' }],
    },
    'target-deps': {
      patterns: [
        {
          match: r`\b(needs)[ \t]*(:)`,
          captures: {
            1: { name: 'keyword.other.needs.skillscript' },
            2: { name: 'punctuation.separator.key-value.skillscript' },
          },
        },
        { name: 'punctuation.separator.comma.skillscript', match: ',' },
        { name: 'entity.name.function.target.reference.skillscript', match: IDENT },
      ],
    },

    // Any other line outside a target is output template text.
    template: {
      name: 'meta.template.skillscript',
      begin: r`^(?=.)`,
      end: '$',
      patterns: [
        { include: '#substitutions' },
        { name: 'markup.other.template.skillscript', match: r`[^$\{]+|[$\{]` },
      ],
    },

    // ---- statements ----------------------------------------------------
    body: {
      patterns: [
        { include: '#line-comment' },
        { include: '#condition' },
        { include: '#else-branch' },
        { include: '#foreach' },
        { include: '#reserved' },
        { include: '#retired-op' },
        { include: '#mutation' },
        { include: '#dispatch' },
        { include: '#call' },
        { include: '#binding' },
        { include: '#fallback' },
        { include: '#kwarg' },
        { include: '#values' },
        { include: '#trailing-comment' },
      ],
    },
    'line-comment': {
      name: 'comment.line.number-sign.skillscript',
      match: r`^[ \t]*(#).*$`,
      captures: { 1: { name: 'punctuation.definition.comment.skillscript' } },
    },
    'trailing-comment': {
      name: 'comment.line.number-sign.skillscript',
      match: r`(?<=[ \t])(#).*$`,
      captures: { 1: { name: 'punctuation.definition.comment.skillscript' } },
    },
    condition: {
      name: 'meta.condition.skillscript',
      begin: r`^[ \t]*(if|elif)\b`,
      end: r`(:)${EOL_COMMENT}|$`,
      beginCaptures: { 1: { name: 'keyword.control.conditional.skillscript' } },
      endCaptures: { 1: { name: 'punctuation.section.block.skillscript' } },
      patterns: [{ include: '#condition-expression' }],
    },
    'condition-expression': {
      patterns: [
        { include: '#values' },
        { name: 'keyword.operator.membership.skillscript', match: r`\bnot[ \t]+in\b|\bin\b` },
        { name: 'keyword.operator.logical.skillscript', match: r`\b(?:and|or|not)\b` },
        { name: 'keyword.operator.comparison.skillscript', match: r`==|!=|<=|>=|<|>` },
        { name: 'invalid.illegal.single-equals.skillscript', match: '=' },
        { name: 'invalid.illegal.operator.skillscript', match: r`&&|\|\||!(?!=)` },
        { name: 'punctuation.section.group.begin.skillscript', match: r`\(` },
        { name: 'punctuation.section.group.end.skillscript', match: r`\)` },
      ],
    },
    'else-branch': {
      match: r`^[ \t]+(else)[ \t]*(:)`,
      captures: {
        1: { name: 'keyword.control.conditional.else.skillscript' },
        2: { name: 'punctuation.section.block.skillscript' },
      },
    },
    foreach: {
      name: 'meta.foreach.skillscript',
      begin: r`^[ \t]*(foreach)(?:[ \t]+(${VAR}))?(?:[ \t]+(in)\b)?`,
      end: r`(:)${EOL_COMMENT}|$`,
      beginCaptures: {
        1: { name: 'keyword.control.loop.foreach.skillscript' },
        2: { name: 'variable.other.iterator.skillscript' },
        3: { name: 'keyword.control.in.skillscript' },
      },
      endCaptures: { 1: { name: 'punctuation.section.block.skillscript' } },
      patterns: [{ include: '#values' }],
    },
    reserved: {
      match: r`^[ \t]*(${RESERVED_FUTURE})\b`,
      captures: { 1: { name: 'invalid.illegal.reserved.skillscript' } },
    },
    // The retired one-character ops (& > ~ @ ! ?) of older releases.
    'retired-op': {
      match: r`^[ \t]*([&>~@!?])(?=[ \t])`,
      captures: { 1: { name: 'invalid.deprecated.op.skillscript' } },
    },
    mutation: {
      match: r`(\$(?:set|append))\b(?:[ \t]+(${VAR}))?(?:[ \t]*(=)(?!=))?`,
      captures: {
        1: { name: 'keyword.other.mutation.skillscript' },
        2: { name: 'variable.other.assignment.skillscript' },
        3: { name: 'keyword.operator.assignment.skillscript' },
      },
    },
    dispatch: {
      patterns: [
        {
          match: r`(\$)[ \t]+(${IDENT})(\.)(${IDENT})`,
          captures: {
            1: { name: 'keyword.operator.dispatch.skillscript' },
            2: { name: 'entity.name.namespace.connector.skillscript' },
            3: { name: 'punctuation.accessor.skillscript' },
            4: { name: 'entity.name.function.tool.skillscript' },
          },
        },
        {
          match: r`(\$)[ \t]+(${TYPED_OPS})\b`,
          captures: {
            1: { name: 'keyword.operator.dispatch.skillscript' },
            2: { name: 'support.function.typed-op.skillscript' },
          },
        },
        {
          match: r`(\$)[ \t]+(${IDENT})`,
          captures: {
            1: { name: 'keyword.operator.dispatch.skillscript' },
            2: { name: 'entity.name.function.tool.skillscript' },
          },
        },
      ],
    },
    // Function-call ops; their arguments may span lines.
    call: {
      patterns: [
        {
          name: 'meta.function-call.skillscript',
          begin: r`\b(${CALL_OPS})[ \t]*(\()`,
          end: r`\)`,
          beginCaptures: {
            1: { name: 'support.function.builtin.skillscript' },
            2: { name: 'punctuation.section.arguments.begin.skillscript' },
          },
          endCaptures: { 0: { name: 'punctuation.section.arguments.end.skillscript' } },
          patterns: [{ include: '#arguments' }],
        },
        {
          name: 'meta.function-call.skillscript',
          begin: r`^[ \t]*(?!(?:${CALL_OPS})\b)(${VAR})[ \t]*(\()`,
          end: r`\)`,
          beginCaptures: {
            1: { name: 'entity.name.function.skillscript' },
            2: { name: 'punctuation.section.arguments.begin.skillscript' },
          },
          endCaptures: { 0: { name: 'punctuation.section.arguments.end.skillscript' } },
          patterns: [{ include: '#arguments' }],
        },
      ],
    },
    arguments: {
      patterns: [
        { include: '#line-comment' },
        { include: '#kwarg' },
        { name: 'punctuation.separator.comma.skillscript', match: ',' },
        { include: '#values' },
      ],
    },
    binding: {
      match: r`(->|→)[ \t]*(${VAR})?`,
      captures: {
        1: { name: 'keyword.operator.binding.skillscript' },
        2: { name: 'variable.other.binding.skillscript' },
      },
    },
    fallback: fallbackRule,
    kwarg: {
      match: r`\b(${IDENT})(=)(?!=)(?:(true|false|null)(?=[\s,)\]}]|$)|(-?[0-9]+(?:\.[0-9]+)?)(?=[\s,)\]}]|$)|([^\s"'\[\]{}(),$#][^\s"'\[\]{}(),$]*))?`,
      captures: {
        1: { name: 'variable.parameter.kwarg.skillscript' },
        2: { name: 'keyword.operator.assignment.skillscript' },
        3: { name: 'constant.language.skillscript' },
        4: { name: 'constant.numeric.skillscript' },
        5: { name: 'string.unquoted.kwarg-value.skillscript' },
      },
    },

    // ---- values --------------------------------------------------------
    values: {
      patterns: [
        { include: '#strings' },
        { include: '#substitutions' },
        { include: '#array' },
        { include: '#object' },
        { include: '#numbers' },
        { include: '#constants' },
      ],
    },
    constants: {
      patterns: [
        { name: 'constant.language.boolean.skillscript', match: r`\b(?:true|false)\b` },
        { name: 'constant.language.null.skillscript', match: r`\bnull\b` },
      ],
    },
    numbers: {
      name: 'constant.numeric.skillscript',
      match: r`(?<![\w.-])-?[0-9]+(?:\.[0-9]+)?(?![\w.])`,
    },
    array: {
      name: 'meta.array.skillscript',
      begin: r`\[`,
      end: r`\]`,
      beginCaptures: { 0: { name: 'punctuation.definition.array.begin.skillscript' } },
      endCaptures: { 0: { name: 'punctuation.definition.array.end.skillscript' } },
      patterns: [
        { include: '#values' },
        { name: 'punctuation.separator.comma.skillscript', match: ',' },
        { name: 'string.unquoted.skillscript', match: r`[^\s"'\[\]{}(),$:]+` },
      ],
    },
    object: {
      name: 'meta.object.skillscript',
      begin: r`\{(?!\{)`,
      end: r`\}`,
      beginCaptures: { 0: { name: 'punctuation.definition.object.begin.skillscript' } },
      endCaptures: { 0: { name: 'punctuation.definition.object.end.skillscript' } },
      patterns: [
        { include: '#values' },
        { name: 'punctuation.separator.key-value.skillscript', match: ':' },
        { name: 'punctuation.separator.comma.skillscript', match: ',' },
      ],
    },
    strings: {
      patterns: [
        { include: '#string-triple' },
        { include: '#string-double' },
        { include: '#string-single' },
      ],
    },
    'string-triple': {
      name: 'string.quoted.triple.skillscript',
      begin: '"""',
      end: '"""',
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.skillscript' } },
      endCaptures: { 0: { name: 'punctuation.definition.string.end.skillscript' } },
      patterns: [{ include: '#escapes' }, { include: '#substitutions' }],
    },
    // Ordinary strings never span lines: an unterminated one ends at the
    // end of its line.
    'string-double': {
      name: 'string.quoted.double.skillscript',
      begin: '"',
      end: r`"|$`,
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.skillscript' } },
      endCaptures: { 0: { name: 'punctuation.definition.string.end.skillscript' } },
      patterns: [{ include: '#escapes' }, { include: '#substitutions' }],
    },
    'string-single': {
      name: 'string.quoted.single.skillscript',
      begin: "'",
      end: r`'|$`,
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.skillscript' } },
      endCaptures: { 0: { name: 'punctuation.definition.string.end.skillscript' } },
      patterns: [{ include: '#escapes' }, { include: '#substitutions' }],
    },
    escapes: {
      patterns: [
        { name: 'constant.character.escape.skillscript', match: r`\\[nt"'\\]` },
        { name: 'invalid.illegal.escape.skillscript', match: r`\\(?!\$\{).` },
      ],
    },

    // ---- substitutions -------------------------------------------------
    substitutions: {
      patterns: [
        { name: 'constant.character.escape.dollar.skillscript', match: r`\$\$` },
        { include: '#substitution' },
        { include: '#legacy-substitution' },
        { include: '#secret-dynamic' },
        { include: '#secret' },
      ],
    },
    substitution: {
      name: 'meta.substitution.skillscript',
      begin: r`(\$\{)[ \t]*(?:(${AMBIENT})\b|(${VAR}))?`,
      end: r`(\})|$`,
      beginCaptures: {
        1: { name: 'punctuation.definition.substitution.begin.skillscript' },
        2: { name: 'variable.language.ambient.skillscript' },
        3: { name: 'variable.other.substitution.skillscript' },
      },
      endCaptures: { 1: { name: 'punctuation.definition.substitution.end.skillscript' } },
      patterns: [
        {
          match: r`(\.)([0-9]+)(?![\w-])`,
          captures: {
            1: { name: 'punctuation.accessor.skillscript' },
            2: { name: 'constant.numeric.index.skillscript' },
          },
        },
        {
          match: r`(\.)([A-Za-z0-9_-]+)`,
          captures: {
            1: { name: 'punctuation.accessor.skillscript' },
            2: { name: 'variable.other.member.skillscript' },
          },
        },
        { include: '#filter' },
        { name: 'invalid.illegal.substitution.skillscript', match: r`[^\s}]` },
      ],
    },
    // "|name" or "|name:arg"; the argument may be "x", \"x\" (inside a
    // double-quoted string), 'x' or a bare word (accepted with a warning).
    filter: {
      match: r`(\|)[ \t]*(?:(${FILTERS})\b|(${VAR}))(?:[ \t]*(:)[ \t]*(?:((\\")(?:[^\\]|\\(?!"))*?(\\"))|((")(?:[^"\\]|\\.)*("))|((')[^']*('))|([^\s|}"'\\]+)))?`,
      captures: {
        1: { name: 'keyword.operator.pipe.skillscript' },
        2: { name: 'support.function.filter.skillscript' },
        3: { name: 'variable.function.filter.unknown.skillscript' },
        4: { name: 'punctuation.separator.filter-argument.skillscript' },
        5: { name: 'string.quoted.double.filter-argument.skillscript' },
        6: { name: 'punctuation.definition.string.begin.skillscript' },
        7: { name: 'punctuation.definition.string.end.skillscript' },
        8: { name: 'string.quoted.double.filter-argument.skillscript' },
        9: { name: 'punctuation.definition.string.begin.skillscript' },
        10: { name: 'punctuation.definition.string.end.skillscript' },
        11: { name: 'string.quoted.single.filter-argument.skillscript' },
        12: { name: 'punctuation.definition.string.begin.skillscript' },
        13: { name: 'punctuation.definition.string.end.skillscript' },
        14: { name: 'string.unquoted.filter-argument.skillscript' },
      },
    },
    // $(NAME) is the retired substitution shape (use ${NAME}).
    'legacy-substitution': {
      name: 'invalid.deprecated.substitution.legacy.skillscript',
      match: r`(\$\()[ \t]*([A-Za-z_][\w.]*)((?:\|[^)\s]*)?)[ \t]*(\))`,
      captures: {
        1: { name: 'punctuation.definition.substitution.begin.skillscript' },
        2: { name: 'variable.other.substitution.skillscript' },
        4: { name: 'punctuation.definition.substitution.end.skillscript' },
      },
    },
    // {{secret.${X}}}: a secret name must be a literal.
    'secret-dynamic': {
      name: 'invalid.illegal.secret-dynamic-name.skillscript',
      match: r`\{\{[ \t]*secret\.[^}\s]*\$\{[^}]*\}[^}\s]*\}\}`,
    },
    secret: {
      name: 'meta.secret.skillscript',
      match: r`(\{\{)[ \t]*(secret)(\.)(${VAR})[ \t]*(\}\})`,
      captures: {
        1: { name: 'punctuation.definition.secret.begin.skillscript' },
        2: { name: 'keyword.other.secret.skillscript' },
        3: { name: 'punctuation.accessor.skillscript' },
        4: { name: 'variable.other.constant.secret.skillscript' },
        5: { name: 'punctuation.definition.secret.end.skillscript' },
      },
    },
  },
};

module.exports = grammar;
