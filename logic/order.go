package logic

// rateOrder is Sudoku Explainer's order of techniques (SukakuExplainer
// 1.18 with its default settings), which Rate follows so that its ratings
// compare with SE's: at every step the first technique that finds
// something wins, even when a later one would rate lower.
var rateOrder = []Technique{
	techFullHouse,
	techHiddenSingle,
	techDirectLocked,
	techDirectHiddenPair,
	techNakedSingle,
	techDirectHiddenTriple,
	techLocked,
	techNakedPair,
	techXWing,
	techHiddenPair,
	techNakedTriple,
	techSwordfish,
	techHiddenTriple,
	techStrongLinks2,
	techXYWing,
	techXYZWing,
	techUniqueLoops,
	techNakedQuad,
	techJellyfish,
	techHiddenQuad,
	techStrongLinks3,
	techWXYZWing,
	techBUG,
	techStrongLinks4,
	techVWXYZWing,
	techAlignedPair,
	techUVWXYZWing,
	techChainsAndCycles,
	techTUVWXYZWing,
	techAlignedTriple,
	techNishio,
	techMultipleFC,
	techDynamicFC,
}

// hintOrder is the order hints and explanations use: the techniques people
// learn, easiest first, with Sudoku Explainer's heavier machinery last.
var hintOrder = []Technique{
	techFullHouse,
	techHiddenSingle,
	techNakedSingle,
	techLocked,
	techNakedPair,
	techXWing,
	techHiddenPair,
	techNakedTriple,
	techSwordfish,
	techHiddenTriple,
	techFinnedXWing,
	techNakedQuad,
	techJellyfish,
	techHiddenQuad,
	techFinnedSwordfish,
	techFinnedJellyfish,
}
