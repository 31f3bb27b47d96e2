/** The package ships no types: its one export is the Porter2 stemmer for an English word. */
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}
