// Package conformance holds reusable test suites for the contracts in
// eval/contract. An implementation's own tests call the suite with a
// constructor:
//
//	func TestConformance(t *testing.T) {
//		conformance.TestDataStore(t, func(t *testing.T) contract.DataStore {
//			return myStore(t)
//		})
//	}
//
// Each suite runs subtests that each get a fresh instance, so they assert
// behaviour, not leftovers of earlier subtests.
package conformance
