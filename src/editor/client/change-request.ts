/*
 * The change request page's script (issue 32, items 2 and 3): drag and drop in the page tree,
 * and a rich-text editor for the description. The page works without it: every drop and
 * every save is the same kind of form POST the page's own forms make (CSRF token included),
 * so the server's 303 or its refusal page is what the member sees.
 */
import 'prosemirror-view/style/prosemirror.css';
import './change-request.css';
import { initTreeDragAndDrop } from './tree-dnd.ts';
import { initDescriptionEditor } from './description-editor.ts';

initTreeDragAndDrop(document);
initDescriptionEditor(document);
