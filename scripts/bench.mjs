const note = 'The benchmarks arrive with the features they measure.';
console.log(note);
