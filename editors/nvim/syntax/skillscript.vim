" Vim syntax file
" Language:    skillscript (*.skill.md)
" Maintainer:  skillc authors
"
" Structure: column-0 "# Key: value" header lines; column-0 "#" comments;
" target blocks (a "name:" header line and the indented lines under it, up to
" the next line that starts at column 0 with anything but "#");
" "default: goal"; target-level
" "else:" blocks; everything else is output template text, where only
" substitutions and secret markers are highlighted.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syntax sync fromstart

" ---- substitutions (anywhere) ----------------------------------------------
syntax region skillscriptSubst matchgroup=skillscriptSubstDelim start=/\${/ end=/}/ end=/$/
      \ oneline contains=skillscriptSubstVar,skillscriptSubstPath,skillscriptFilter,skillscriptFilterArg
syntax match skillscriptSubstVar /\%(\${\s*\)\@<=\h\w*/ contained
syntax match skillscriptSubstPath /\.[[:alnum:]_-]\+/ contained
syntax match skillscriptFilter /|\s*\h\w*/ contained
syntax match skillscriptFilterArg /\%(|\s*\h\w*\s*:\s*\)\@<=\%(\\"\%([^\\]\|\\[^"]\)\{-}\\"\|"[^"]*"\|'[^']*'\|[^|}[:space:]]\+\)/ contained
syntax match skillscriptLegacySubst /\$(\s*\h[[:alnum:]_.]*\%(|[^)[:space:]]*\)\=\s*)/
syntax match skillscriptDollarEscape /\$\$/
syntax match skillscriptSecret /{{\s*secret\.\h\w*\s*}}/ contains=skillscriptSecretName
syntax match skillscriptSecretName /\%(secret\.\)\@<=\h\w*/ contained
syntax match skillscriptSecretDynamic /{{\s*secret\.[^}[:space:]]*\${[^}]*}[^}[:space:]]*}}/

syntax cluster skillscriptSubsts contains=skillscriptSubst,skillscriptLegacySubst,skillscriptDollarEscape,skillscriptSecret,skillscriptSecretDynamic

" ---- comments ----------------------------------------------------------------
syntax match skillscriptComment /^#.*$/ contains=@Spell
syntax match skillscriptLineComment /^\s\+#.*$/ contained contains=@Spell
syntax match skillscriptTrailingComment /\%(\s\)\@<=#.*$/ contained contains=@Spell

" ---- header lines (defined after comments, so they win at column 0) --------
let s:header_keys = 'skill\|status\|description\|vars\|returns\|requires\|triggers\|output\|type'
      \ . '\|tags\|autonomous\|timeout\|deadline\|event-type\|templates\|tests'
execute 'syntax match skillscriptHeader /^#\s*\c\%(' . s:header_keys . '\)\s*:.*$/'
      \ . ' contains=skillscriptHeaderKey,@skillscriptSubsts'
syntax match skillscriptHeaderKey /^#\s*\h[[:alnum:]_-]*\s*:/ contained

syntax match skillscriptStatusHeader /^#\s*\cstatus\s*:.*$/ contains=skillscriptHeaderKey,skillscriptStatusValue
syntax match skillscriptStatusValue /\c\<\%(draft\|approved\|disabled\)\>/ contained

syntax match skillscriptTypeHeader /^#\s*\ctype\s*:.*$/ contains=skillscriptHeaderKey,skillscriptTypeValue
syntax match skillscriptTypeValue /\c\<data\>/ contained

syntax match skillscriptAutonomousHeader /^#\s*\cautonomous\s*:.*$/ contains=skillscriptHeaderKey,skillscriptBoolean

syntax match skillscriptOutputHeader /^#\s*\coutput\s*:.*$/ contains=skillscriptHeaderKey,skillscriptOutputKind,@skillscriptSubsts
syntax match skillscriptOutputKind /\%(:\s*\|,\s*\)\@<=\c\%(text\|none\|agent\|template\|file\)\>/ contained

syntax match skillscriptTriggersHeader /^#\s*\ctriggers\s*:.*$/ contains=skillscriptHeaderKey,skillscriptTriggerSource,skillscriptString
syntax match skillscriptTriggerSource /\%(:\s*\|,\s*\)\@<=\c\%(cron\|event\|idle\|session\)\ze\s*:/ contained

syntax match skillscriptVarsHeader /^#\s*\cvars\s*:.*$/ contains=skillscriptHeaderKey,skillscriptVarDecl,skillscriptString,skillscriptNumber,skillscriptArray
syntax match skillscriptVarDecl /\%(:\s*\|,\s*\)\@<=\h\w*/ contained
syntax region skillscriptArray start=/\[/ end=/\]/ oneline contained contains=skillscriptString,skillscriptNumber,@skillscriptSubsts

syntax match skillscriptReturnsHeader /^#\s*\creturns\s*:.*$/ contains=skillscriptHeaderKey,skillscriptVarName
syntax match skillscriptVarName /\<\h\w*\>/ contained

syntax match skillscriptRequiresHeader /^#\s*\crequires\s*:.*$/ contains=skillscriptHeaderKey,skillscriptRequiredSecret,skillscriptBinding,skillscriptFallback
syntax match skillscriptRequiredSecret /\<secret\.\h\w*/ contained contains=skillscriptSecretName

syntax match skillscriptLegacyHeader /^#\s*\c\%(delivery-context\|onerror\)\s*:.*$/ contains=skillscriptLegacyKey
syntax match skillscriptLegacyKey /^#\s*\h[[:alnum:]_-]*\s*:/ contained

" Column-0 "#" lines (headers and comments) do not end a target block.
syntax cluster skillscriptTopHash contains=skillscriptComment,skillscriptHeader,skillscriptStatusHeader,
      \skillscriptTypeHeader,skillscriptAutonomousHeader,skillscriptOutputHeader,skillscriptTriggersHeader,
      \skillscriptVarsHeader,skillscriptReturnsHeader,skillscriptRequiresHeader,skillscriptLegacyHeader

" ---- statements inside target blocks ---------------------------------------
syntax cluster skillscriptStatement contains=skillscriptLineComment,skillscriptTrailingComment,
      \skillscriptCondition,skillscriptForeach,skillscriptElse,skillscriptReserved,skillscriptRetired,
      \skillscriptMutation,skillscriptDispatch,skillscriptCall,skillscriptKwarg,skillscriptBinding,
      \skillscriptFallback,skillscriptString,skillscriptTripleString,skillscriptSingleString,
      \skillscriptNumber,skillscriptBoolean,skillscriptNull,@skillscriptSubsts

syntax region skillscriptCondition matchgroup=skillscriptConditional
      \ start=/^\s\+\zs\%(if\|elif\)\>/ end=/:\ze\s*\%(#.*\)\=$/ end=/$/ oneline contained
      \ contains=skillscriptOperator,skillscriptLogical,skillscriptSingleEquals,skillscriptBadOperator,
      \skillscriptString,skillscriptSingleString,skillscriptNumber,skillscriptBoolean,skillscriptNull,@skillscriptSubsts
syntax match skillscriptOperator /==\|!=\|<=\|>=\|<\|>/ contained
syntax match skillscriptLogical /\<\%(and\|or\|not\|in\)\>/ contained
syntax match skillscriptSingleEquals /[=!<>]\@<!=[=]\@!/ contained
syntax match skillscriptBadOperator /&&\|||/ contained

syntax region skillscriptForeach matchgroup=skillscriptRepeat
      \ start=/^\s\+\zsforeach\>/ end=/:\ze\s*\%(#.*\)\=$/ end=/$/ oneline contained
      \ contains=skillscriptIterator,skillscriptLogical,@skillscriptSubsts
syntax match skillscriptIterator /\%(foreach\s\+\)\@<=\h\w*/ contained

syntax match skillscriptElse /^\s\+\zselse\ze\s*:/ contained
syntax match skillscriptReserved /^\s\+\zs\%(while\|for\|match\|try\|catch\|return\)\>/ contained
syntax match skillscriptRetired /^\s\+\zs[&>~@!?]\ze\s/ contained

syntax match skillscriptMutation /\$\%(set\|append\)\>/ contained nextgroup=skillscriptAssigned skipwhite
syntax match skillscriptAssigned /\h\w*/ contained

syntax match skillscriptDispatch /\$\s\+\ze\h/ contained nextgroup=skillscriptTypedOp,skillscriptConnector,skillscriptTool
syntax match skillscriptTool /\h[[:alnum:]_-]*/ contained
syntax match skillscriptConnector /\h[[:alnum:]_-]*\ze\.\h/ contained nextgroup=skillscriptToolDot
syntax match skillscriptToolDot /\./ contained nextgroup=skillscriptTool
syntax match skillscriptTypedOp /\%(llm\|data_read\|data_write\|skill_read\|skill_write\|json_parse\)\>/ contained

syntax match skillscriptCall /\<\%(emit\|notify\|inline\|execute_skill\|shell\|file_read\|file_write\)\ze\s*(/ contained
syntax match skillscriptKwarg /\<\h[[:alnum:]_-]*\ze=[^=]/ contained
syntax match skillscriptBinding /\%(->\|→\)\s*\h\w*/ contained contains=skillscriptArrow
syntax match skillscriptArrow /->\|→/ contained
syntax match skillscriptFallback /(\s*\zsfallback\ze\s*:/ contained

syntax region skillscriptString start=/"/ skip=/\\\\\|\\"/ end=/"/ end=/$/ oneline contained
      \ contains=skillscriptEscape,@skillscriptSubsts
syntax region skillscriptSingleString start=/'/ skip=/\\\\\|\\'/ end=/'/ end=/$/ oneline contained
      \ contains=skillscriptEscape,@skillscriptSubsts
syntax region skillscriptTripleString start=/"""/ end=/"""/ contained
      \ contains=skillscriptEscape,@skillscriptSubsts
syntax match skillscriptEscape /\\[nt"'\\]/ contained
syntax match skillscriptNumber /\%([[:alnum:]_.-]\)\@<!-\=\d\+\%(\.\d\+\)\=\>/ contained
syntax keyword skillscriptBoolean true false contained
syntax keyword skillscriptNull null contained

" ---- blocks ------------------------------------------------------------------
" A target block starts at its header line (zero-width, so the header items
" below can match it) and ends before the next line that starts at column 0.
syntax region skillscriptTargetBlock
      \ start=/^\ze\%(default\s*:\|else\s*:\)\@!\h[[:alnum:]_-]*\s*:\%(\s*needs\s*:\)\=[[:alnum:]_, \t-]*\%(\s#.*\)\=$/
      \ end=/\n\ze[^#[:space:]]/ contains=skillscriptTargetHeader,@skillscriptStatement,@skillscriptTopHash fold
syntax match skillscriptTargetHeader /^\h[[:alnum:]_-]*\s*:.*$/ contained
      \ contains=skillscriptTargetName,skillscriptNeeds,skillscriptTargetRef,skillscriptTrailingComment
syntax match skillscriptTargetName /^\h[[:alnum:]_-]*/ contained
syntax match skillscriptNeeds /\<needs\ze\s*:/ contained
syntax match skillscriptTargetRef /\%(:.*\)\@<=\<\h[[:alnum:]_-]*\>\%(\s*:\)\@!/ contained

syntax region skillscriptElseBlock start=/^\zeelse\s*:/ end=/\n\ze[^#[:space:]]/
      \ contains=skillscriptTargetElse,@skillscriptStatement,@skillscriptTopHash fold
syntax match skillscriptTargetElse /^else\ze\s*:/ contained

syntax match skillscriptDefault /^default\ze\s*:/ nextgroup=skillscriptDefaultColon
syntax match skillscriptDefaultColon /\s*:\s*/ contained nextgroup=skillscriptTargetRef2
syntax match skillscriptTargetRef2 /\h[[:alnum:]_-]*/ contained

" ---- highlight links ----------------------------------------------------------
highlight default link skillscriptComment          Comment
highlight default link skillscriptLineComment      Comment
highlight default link skillscriptTrailingComment  Comment
highlight default link skillscriptHeader           String
highlight default link skillscriptHeaderKey        PreProc
highlight default link skillscriptStatusHeader     String
highlight default link skillscriptTypeHeader       String
highlight default link skillscriptAutonomousHeader String
highlight default link skillscriptOutputHeader     String
highlight default link skillscriptTriggersHeader   String
highlight default link skillscriptVarsHeader       String
highlight default link skillscriptReturnsHeader    String
highlight default link skillscriptRequiresHeader   String
highlight default link skillscriptStatusValue      Constant
highlight default link skillscriptTypeValue        Constant
highlight default link skillscriptOutputKind       Constant
highlight default link skillscriptTriggerSource    Constant
highlight default link skillscriptVarDecl          Identifier
highlight default link skillscriptVarName          Identifier
highlight default link skillscriptRequiredSecret   Special
highlight default link skillscriptLegacyHeader     Comment
highlight default link skillscriptLegacyKey        Error
highlight default link skillscriptArray            Normal
highlight default link skillscriptTargetName       Function
highlight default link skillscriptTargetRef        Identifier
highlight default link skillscriptTargetRef2       Identifier
highlight default link skillscriptNeeds            Keyword
highlight default link skillscriptDefault          Keyword
highlight default link skillscriptTargetElse       Exception
highlight default link skillscriptConditional      Conditional
highlight default link skillscriptElse             Conditional
highlight default link skillscriptRepeat           Repeat
highlight default link skillscriptIterator         Identifier
highlight default link skillscriptOperator         Operator
highlight default link skillscriptLogical          Operator
highlight default link skillscriptSingleEquals     Error
highlight default link skillscriptBadOperator      Error
highlight default link skillscriptReserved         Error
highlight default link skillscriptRetired          Error
highlight default link skillscriptMutation         Statement
highlight default link skillscriptAssigned         Identifier
highlight default link skillscriptDispatch         Operator
highlight default link skillscriptConnector        Type
highlight default link skillscriptToolDot          Delimiter
highlight default link skillscriptTool             Function
highlight default link skillscriptTypedOp          Function
highlight default link skillscriptCall             Function
highlight default link skillscriptKwarg            Identifier
highlight default link skillscriptBinding          Identifier
highlight default link skillscriptArrow            Operator
highlight default link skillscriptFallback         Exception
highlight default link skillscriptString           String
highlight default link skillscriptSingleString     String
highlight default link skillscriptTripleString     String
highlight default link skillscriptEscape           SpecialChar
highlight default link skillscriptNumber           Number
highlight default link skillscriptBoolean          Boolean
highlight default link skillscriptNull             Constant
highlight default link skillscriptSubstDelim       Delimiter
highlight default link skillscriptSubst            Identifier
highlight default link skillscriptSubstVar         Identifier
highlight default link skillscriptSubstPath        Identifier
highlight default link skillscriptFilter           Function
highlight default link skillscriptFilterArg        String
highlight default link skillscriptLegacySubst      WarningMsg
highlight default link skillscriptDollarEscape     SpecialChar
highlight default link skillscriptSecret           Special
highlight default link skillscriptSecretName       Constant
highlight default link skillscriptSecretDynamic    Error

let b:current_syntax = 'skillscript'

let &cpo = s:cpo_save
unlet s:cpo_save
