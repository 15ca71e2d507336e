// Package mock is the --mock FILE connector: canned results for every kind
// of external op, read from a YAML or JSON file. It implements the
// eval/contract interfaces (Connector, LocalModel, DataStore, SkillStore),
// so the evaluator treats it as a connector like any other.
//
// # File format
//
// The file is a mapping with one key, mocks, holding a list of entries.
// Entries are tried in file order; the first whose op and argument matchers
// fit the call answers it.
//
//	mocks:
//	  - op: youtrack.search_issues      # conn.tool, llm, data_read, data_write,
//	                                    # skill_read, skill_write or json_parse
//	    args:                           # optional: arguments that must be equal
//	      limit: 20                     #   (compared by string form, so 20 == "20";
//	                                    #   lists and objects by canonical JSON)
//	    contains:                       # optional: arguments whose string form
//	      query: "project:INFRA"        #   must contain the given text
//	    result: [{id: T-1}]             # the canned result, any YAML value
//	    delay: 150ms                    # optional: wait first (seconds if a number)
//
//	  - op: llm
//	    contains: {prompt: "Classify"}
//	    responses:                      # a sequence: each call takes the next
//	      - result: urgent              #   response; the last one repeats
//	      - error: "model overloaded"   # a failed call (transport error)
//	      - is_error: true              # a tool error result (contract.ToolError)
//	        result: {reason: quota}
//
// A response is result, error, is_error and delay; an entry holds either
// one response inline or a responses list, not both. Unknown keys, a
// missing op, an empty entry and malformed delays are errors that carry
// the file's line and column.
//
// # Arguments seen by the matchers
//
//	conn.tool     the op's kwargs as given
//	llm           prompt, model, maxTokens
//	data_read     mode, query, limit, domain_tags, filters, min_confidence
//	              (and id, for DataStore.Get)
//	data_write    content, tags, metadata, recipients, expires_at
//	skill_read    name
//	skill_write   name, source, author
//	json_parse    input
//
// # Results
//
// For conn.tool the result is returned as it is. For llm it is the
// completion text (non-strings as JSON). data_read takes a list of records
// ({id, summary, detail or content, tags, metadata, score}); data_write an
// object with id (or a string id; a generated id when absent). skill_read
// takes a skill object ({name, body or source, status, author,
// description, type}) or the source text; skill_write the same, defaulting
// to the written source. json_parse returns the result as the parsed value.
// A call no entry matches fails with *NoMatchError.
package mock
