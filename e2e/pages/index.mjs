// The page objects of the five views, by the view name of their links (`#view=…`):
// `ViewPage.open` returns an instance of the view's class.
import { InequalityPage } from './inequality.mjs';

export { InequalityPage };

export const PAGE_CLASSES = { inequality: InequalityPage };
