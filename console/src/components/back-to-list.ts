import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { consolePath } from './console-path.ts';
import { readAgain } from '../api/read-again.ts';

/**
 * After a record is deleted: back to its area's list, and that list read again. Only the list
 * (queries keyed `[area, environmentId, 'list', …]`): the deleted record's own queries, read
 * again now, would only answer 404.
 */
export function useBackToList(area: string): () => Promise<void> {
  const { environmentId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    await navigate(consolePath(environmentId, area));
    await readAgain(queryClient, [area, environmentId, 'list']);
  };
}
